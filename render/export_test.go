package render

import (
	"testing"

	"github.com/boardbot/boardbot/engine"
)

func TestExport(t *testing.T) {
	svc, st := fixtureStore(t)
	gomoku, _ := engine.Preset("gomoku")
	for _, tt := range []struct {
		rules engine.Rules
		state string
		l     Lang
		want  string
	}{
		{engine.TicTacToe(), won, English, "Game: Tic-tac-toe (ttt)\nFirst: ❌ alice\nSecond: ⭕ AI (hard)\nDate: 2026-01-02\nResult: Winner: ❌ alice, with three in a row.\nMoves (5): a3 b3 b2 c3 c1"},
		{engine.TicTacToe(), won, Chinese, "棋类：井字棋（ttt）\n先手：❌ alice\n后手：⭕ AI（困难）\n日期：2026-01-02\n结果：获胜：❌ alice，连成三子。\n棋谱（5 手）：a3 b3 b2 c3 c1"},
		{gomoku, inProgress, English, "Game: Gomoku 15×15 (gomoku)\nFirst: ⚫ alice\nSecond: ⚪ AI (hard)\nDate: 2026-01-02\nResult: ⚫ alice to move\nMoves (4): h8 g9 i9 i7"},
		{engine.Rules{Width: 9, Height: 9, K: 5, Exact: true}, won, English, "Game: 9×9, exactly five in a row (9x9 k5 exact)\nFirst: ⚫ alice\nSecond: ⚪ AI (hard)\nDate: 2026-01-02\nResult: Winner: ⚫ alice, with five in a row.\nMoves (9): c7 d7 d6 e7 e5 f7 f4 g7 g3"},
	} {
		v := fixture(t, svc, st, tt.rules, tt.state)
		if got := Export(v, tt.l); got != tt.want {
			t.Errorf("%v %s %s:\n%s\nwant:\n%s", tt.rules, tt.state, tt.l, got, tt.want)
		}
	}
}

func TestExportOfAFullBoardFitsAMessage(t *testing.T) {
	svc, st := fixtureStore(t)
	r, _ := engine.Preset("gomoku19")
	v := fixture(t, svc, st, r, drawn)
	for _, l := range Langs {
		if n := TextLen(Export(v, l)); n > DiscordTextLimit {
			t.Errorf("%s: %d units, over %d", l, n, DiscordTextLimit)
		}
	}
}
