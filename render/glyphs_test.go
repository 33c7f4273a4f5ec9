package render

import (
	"slices"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// glyphLook is what a cell glyph looks like: its shape and its colour in
// the chat clients' emoji fonts (Telegram's, Twemoji, Apple, Noto).
type glyphLook struct{ shape, colour string }

// looks describes every glyph a cell may show. A glyph not listed here
// fails TestLastMoveMarksKeepTheSideAndNeverLookEmpty: describe it first.
var looks = map[string]glyphLook{
	"⬜":  {"square", "white"},
	"🟫":  {"square", "brown"},
	"❌":  {"x", "red"},
	"⭕":  {"ring", "red"},
	"❎":  {"x", "green"},
	"✖️": {"x", "black"},
	"🅾️": {"ring", "red"},
	"⚫":  {"disc", "black"},
	"⚪":  {"disc", "white"},
	"⬛":  {"square", "black"},
	"◼️": {"square", "black"},
	"◻️": {"square", "white"},
}

func TestLastMoveMarksKeepTheSideAndNeverLookEmpty(t *testing.T) {
	// Collect every glyph of an empty cell on any board: a marked stone
	// must never be mistaken for one, on its own board or another.
	var empties []string
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		empties = append(empties, glyphsFor(r).empty)
	}
	for _, g := range []glyphs{ticTacToeGlyphs, gomokuGlyphs} {
		empties = append(empties, g.empty)
	}
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		g := glyphsFor(r)
		// Tic-tac-toe tells the sides apart by shape (both are red),
		// gomoku by colour (both are discs).
		side := func(l glyphLook) string { return l.shape }
		if g == gomokuGlyphs {
			side = func(l glyphLook) string { return l.colour }
		}
		for i := range 2 {
			stone, mark := g.stone[i], g.marked[i]
			ls, okS := looks[stone]
			lm, okM := looks[mark]
			if !okS || !okM {
				t.Fatalf("%s: describe %q and %q in looks", name, stone, mark)
			}
			if slices.Contains(empties, mark) || lm == looks[g.empty] {
				t.Errorf("%s: the marked stone %q looks like an empty cell", name, mark)
			}
			if side(lm) != side(ls) {
				t.Errorf("%s: the marked stone %q is not %s like its stone %q", name, mark, side(ls), stone)
			}
			if side(lm) == side(looks[g.stone[1-i]]) {
				t.Errorf("%s: the marked stone %q looks like the other side's %q", name, mark, g.stone[1-i])
			}
			// A mark keeps its stone's colour, or is plain black ink.
			if lm.colour != ls.colour && lm.colour != "black" {
				t.Errorf("%s: the marked stone %q is %s, its stone %q %s", name, mark, lm.colour, stone, ls.colour)
			}
			if mark == stone || mark == g.marked[1-i] {
				t.Errorf("%s: the marked stone %q is not told apart", name, mark)
			}
		}
	}
}
