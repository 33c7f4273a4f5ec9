package render

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// TestComposeCaptionIsTheTextWithoutTheBoard checks that a board too large
// for the buttons comes with a picture whose caption keeps every line of
// the text but the emoji board: the header, the status, the last move,
// the takebacks asked and the window; and that a board the buttons show
// whole has no picture and no caption.
func TestComposeCaptionIsTheTextWithoutTheBoard(t *testing.T) {
	svc, st := fixtureStore(t)
	rules, _ := engine.Preset("gomoku")
	gomoku := storedView(t, svc, st, rules, []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}}, session.Running, engine.Empty)
	for _, l := range Langs {
		for _, layout := range []Layout{TelegramLayout, DiscordLayout, ConsoleLayout} {
			b := Compose(gomoku, l, layout, nil)
			text, kb := Message(gomoku, l, layout, nil)
			if b.Text != text || !b.HasPicture || !kb.Partial || len(b.Keyboard.Rows) != len(kb.Rows) {
				t.Fatalf("%s: compose %+v, message %q", l, b, text)
			}
			grid := Grid(gomoku)
			want := strings.Replace(text, "\n\n"+grid+"\n", "\n", 1)
			if b.Caption != want || strings.Contains(b.Caption, grid) {
				t.Errorf("%s caption:\n%s\nwant:\n%s", l, b.Caption, want)
			}
			for _, line := range []string{Status(gomoku, l), T(l, MsgLastMove, Stone(gomoku.Rules(), engine.White), "i7"), WindowText(gomoku, kb, l)} {
				if !strings.Contains(b.Caption, line) {
					t.Errorf("%s caption %q lacks %q", l, b.Caption, line)
				}
			}
		}
	}
	ttt := storedView(t, svc, st, engine.TicTacToe(), []engine.Point{{X: 1, Y: 1}, {X: 0, Y: 0}}, session.Running, engine.Empty)
	if b := Compose(ttt, English, TelegramLayout, nil); b.HasPicture || b.Caption != "" || b.Text != Text(ttt, English) {
		t.Errorf("3×3: %+v", b)
	}
}
