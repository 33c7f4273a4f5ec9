package render

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// storedDuel stores a running duel of rules r between alice (black) and
// bob with the given moves, a takeback request by ask (or none) and
// takebacks done, and returns its view as the service loads it.
func storedDuel(t *testing.T, svc *session.Service, st *boltstore.Store, r engine.Rules, moves int, ask engine.Stone, takebacks int) session.View {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := session.Game{
		Platform: "test", Chat: "c", Rules: r,
		Seats:  [2]session.Seat{{User: alice}, {User: session.User{ID: "2", Name: "bob"}}},
		Status: session.Running, Version: 1, Seed: 7, Created: at, Updated: at,
		UndoAsk: ask, Takebacks: takebacks,
	}
	for i := range moves {
		g.Moves = append(g.Moves, engine.Point{X: i % r.Width, Y: i / r.Width * 2})
	}
	g.ID = session.GameID("u" + strconv.FormatUint(fixtures.Add(1), 36))
	v, err := session.ViewOf(g)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// undoKinds returns the takeback actions of a keyboard, in order.
func undoKinds(kb Keyboard) []Action {
	var out []Action
	for _, row := range kb.Rows {
		for _, b := range row {
			switch b.Action.Kind {
			case Undo, UndoAccept, UndoDecline:
				out = append(out, b.Action)
			}
		}
	}
	return out
}

// TestUndoButtons checks the takeback buttons on every board and layout:
// ↩️ once there is a move to take back, Allow and Refuse while a duel's
// request waits, each carrying the move number; always there on Telegram
// and the terminal, on Discord where the grid has room (every board up to
// 4×4), and never beyond a layout's limits.
func TestUndoButtons(t *testing.T) {
	svc, st := fixtureStore(t)
	for _, tc := range []struct {
		name  string
		moves int
		ask   engine.Stone
		want  []ActionKind
	}{
		{name: "no move yet", moves: 0},
		{name: "a move", moves: 1, want: []ActionKind{Undo}},
		{name: "a request", moves: 2, ask: engine.Black, want: []ActionKind{UndoAccept, UndoDecline}},
	} {
		for size := engine.MinSize; size <= engine.MaxSize; size++ {
			r := engine.Rules{Width: size, Height: size, K: 3}
			v := storedDuel(t, svc, st, r, tc.moves, tc.ask, 0)
			for _, lt := range []struct {
				name   string
				layout Layout
				always bool
			}{{"telegram", TelegramLayout, true}, {"discord", DiscordLayout, size <= 4}, {"console", ConsoleLayout, true}} {
				kb := BoardKeyboard(v, English, lt.layout, nil)
				if !lt.layout.fits(kb.Window.Width, kb.Window.Height, kb.Buttons()-kb.Window.Width*kb.Window.Height) {
					t.Errorf("%s %s on %s: %d buttons in %d rows overflow the layout", tc.name, r, lt.name, kb.Buttons(), len(kb.Rows))
				}
				got := undoKinds(kb)
				if len(got) == 0 && !lt.always {
					continue
				}
				if len(got) != len(tc.want) {
					t.Errorf("%s %s on %s: takeback buttons %+v, want %v", tc.name, r, lt.name, got, tc.want)
					continue
				}
				for i, a := range got {
					if a.Kind != tc.want[i] || a.Game != v.ID() || a.MoveNo != v.MoveNo() {
						t.Errorf("%s %s on %s: button %+v, want %v at move %d", tc.name, r, lt.name, a, tc.want[i], v.MoveNo())
					}
				}
			}
		}
	}
	// Against the AI, ↩️ shows once the person has a move: not under the
	// AI's opening.
	opening := storedView(t, svc, st, engine.TicTacToe(), nil, session.Running, engine.Empty)
	if got := undoKinds(BoardKeyboard(opening, English, TelegramLayout, nil)); len(got) != 0 {
		t.Errorf("no move yet: %+v", got)
	}
}

func TestTakebackTexts(t *testing.T) {
	svc, st := fixtureStore(t)
	v := storedDuel(t, svc, st, engine.TicTacToe(), 2, engine.White, 1)
	for l, want := range map[Lang][]string{
		English: {"Takebacks: 1.", "Takeback asked by ⭕ bob. ❌ alice: accept or refuse (or type /undo to accept)."},
		Chinese: {"悔棋：1 次。", "⭕ bob 请求悔棋。❌ alice：请同意或拒绝（或输入 /undo 同意）。"},
	} {
		text := Text(v, l)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s text lacks %q:\n%s", l, w, text)
			}
		}
	}
	if kb := BoardKeyboard(v, Chinese, TelegramLayout, nil); !strings.Contains(fmtLabels(kb), "✅ 同意悔棋") {
		t.Errorf("Chinese buttons: %s", fmtLabels(kb))
	}
}

// fmtLabels returns the labels of a keyboard, space-separated.
func fmtLabels(kb Keyboard) string {
	var sb strings.Builder
	for _, row := range kb.Rows {
		for _, b := range row {
			sb.WriteString(b.Label + " ")
		}
	}
	return sb.String()
}
