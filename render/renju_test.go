package render

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// renjuDoubleThree leaves Black to move in renju with 7,7 (h8) a double
// three; one more white move leaves White to move.
var renjuDoubleThree = []engine.Point{{X: 5, Y: 7}, {X: 0, Y: 0}, {X: 6, Y: 7}, {X: 14, Y: 0}, {X: 7, Y: 5}, {X: 0, Y: 14}, {X: 7, Y: 6}, {X: 14, Y: 14}}

func TestRenjuForbiddenPointsAreMarked(t *testing.T) {
	svc, st := fixtureStore(t)
	r, _ := engine.Preset("renju")
	foul := engine.Point{X: 7, Y: 7}
	black := storedView(t, svc, st, r, renjuDoubleThree, session.Running, engine.Empty)
	// White to move: the same shape, no marks.
	white := storedView(t, svc, st, r, append(append([]engine.Point(nil), renjuDoubleThree...), engine.Point{X: 12, Y: 12}), session.Running, engine.Empty)
	free := storedView(t, svc, st, engine.Rules{Width: 15, Height: 15, K: 5}, renjuDoubleThree, session.Running, engine.Empty)

	for _, l := range Langs {
		text := Text(black, l)
		if strings.Count(text, forbiddenGlyph) != 1 {
			t.Errorf("%s: board with Black to move has %d ⛔, want 1:\n%s", l, strings.Count(text, forbiddenGlyph), text)
		}
		if want := map[Lang]string{English: "Renju 15×15", Chinese: "连珠 15×15"}[l]; !strings.Contains(Title(black, l), want) {
			t.Errorf("%s: title %q does not name %q", l, Title(black, l), want)
		}
		for _, v := range []session.View{white, free} {
			if strings.Contains(Text(v, l), forbiddenGlyph) {
				t.Errorf("%s: ⛔ on %v with %v to move:\n%s", l, v.Rules(), v.ToMove(), Text(v, l))
			}
		}
	}
	row := strings.Split(Grid(black), "\n")[1+foul.Y]
	if !strings.Contains(row, forbiddenGlyph) {
		t.Errorf("row %d has no ⛔: %s", foul.Y+1, row)
	}

	// The button is marked and still places, so that a tap is refused with
	// the reason.
	for _, layout := range []Layout{TelegramLayout, DiscordLayout} {
		kb := BoardKeyboard(black, English, layout, nil)
		n := 0
		for _, row := range kb.Rows {
			for _, b := range row {
				if b.Label != forbiddenGlyph {
					continue
				}
				n++
				if b.Action.Kind != Place || b.Action.Cell != foul {
					t.Errorf("%v: ⛔ button %+v, want a Place at %v", layout, b.Action, foul)
				}
			}
		}
		if kb.Window.Contains(foul) && n != 1 {
			t.Errorf("%v: %d ⛔ buttons, want 1", layout, n)
		}
	}

	// The picture draws the mark only when Black is to move.
	if pixelAt(decodePicture(t, black), r, foul) == pixelAt(decodePicture(t, free), r, foul) {
		t.Error("the picture does not mark the forbidden point")
	}
	if pixelAt(decodePicture(t, white), r, foul) != pixelAt(decodePicture(t, free), r, foul) {
		t.Error("the picture marks a forbidden point with White to move")
	}
}

func TestRenjuFoulRefusalText(t *testing.T) {
	want := map[Lang]map[engine.Foul]string{
		English: {engine.DoubleThree: "Forbidden for Black: double three.", engine.DoubleFour: "Forbidden for Black: double four.", engine.Overline: "Forbidden for Black: overline."},
		Chinese: {engine.DoubleThree: "黑棋禁手：三三。", engine.DoubleFour: "黑棋禁手：四四。", engine.Overline: "黑棋禁手：长连。"},
	}
	for l, fouls := range want {
		for f, msg := range fouls {
			err := fmt.Errorf("session: game g1: %w", &engine.FoulError{Point: engine.Point{X: 7, Y: 7}, Foul: f})
			if !errors.Is(err, engine.ErrForbidden) {
				t.Fatal("FoulError does not wrap ErrForbidden")
			}
			if got := ErrorText(l, err); got != msg {
				t.Errorf("%s %v: %q, want %q", l, f, got, msg)
			}
		}
	}
	if got := FamilyName(Chinese, engine.FamilyRenju); got != "连珠" {
		t.Errorf("FamilyName(zh, renju) = %q", got)
	}
}

// TestOverlineWinIsNamed checks the status line of a renju game White won
// with six in a row: an overline, which wins for White only, not "five in
// a row"; a freestyle six is six in a row, and a five still five.
func TestOverlineWinIsNamed(t *testing.T) {
	svc, st := fixtureStore(t)
	renju, _ := engine.Preset("renju")
	gomoku, _ := engine.Preset("gomoku")
	// White fills b15–g15 last at e15; Black's stones stand apart.
	six := []engine.Point{
		{X: 0, Y: 14}, {X: 1, Y: 0}, {X: 14, Y: 14}, {X: 2, Y: 0}, {X: 0, Y: 10}, {X: 3, Y: 0},
		{X: 14, Y: 10}, {X: 5, Y: 0}, {X: 10, Y: 12}, {X: 6, Y: 0}, {X: 12, Y: 5}, {X: 4, Y: 0},
	}
	five := append(append([]engine.Point(nil), six[:9]...), engine.Point{X: 4, Y: 0})
	for _, tt := range []struct {
		r     engine.Rules
		moves []engine.Point
		want  map[Lang]string
	}{
		{renju, six, map[Lang]string{
			English: "Winner: ⚪ AI (hard), with an overline: six in a row, which wins for White in renju.",
			Chinese: "获胜：⚪ AI（困难），长连（连成六子）：连珠规则中白棋长连也获胜。",
		}},
		{gomoku, six, map[Lang]string{English: "Winner: ⚪ AI (hard), with six in a row.", Chinese: "获胜：⚪ AI（困难），连成六子。"}},
		{renju, five, map[Lang]string{English: "Winner: ⚪ AI (hard), with five in a row.", Chinese: "获胜：⚪ AI（困难），连成五子。"}},
	} {
		v := storedView(t, svc, st, tt.r, tt.moves, session.Won, engine.White)
		if n := len(v.WinningLine()); n != len(tt.moves)/2 {
			t.Fatalf("%v: winning line of %d", tt.r, n)
		}
		for l, want := range tt.want {
			if got := Status(v, l); got != want {
				t.Errorf("%v in %s: %q, want %q", tt.r, l, got, want)
			}
		}
	}
}
