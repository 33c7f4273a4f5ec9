package render

import (
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// Follow returns the top-left cell to show the board of v at with layout
// after a move made while the window was at origin: origin (moved onto
// the board as BoardKeyboard does) while the window there holds the last
// move, so that a button keeps its cell from move to move; else nil, the
// window around the last move.
func Follow(v session.View, layout Layout, origin engine.Point) *engine.Point {
	r := v.Rules()
	win := chooseWindow(r, layout)
	win.Origin = origin
	win.Origin = clampOrigin(win, r)
	if last, ok := v.LastMove(); ok && !win.Contains(last) {
		return nil
	}
	return &win.Origin
}

// WindowText says which cells the buttons of kb, the keyboard of v, are
// when they are a window of a running game's board: "The buttons are
// columns d–k, rows 3–13." It is "" otherwise.
func WindowText(v session.View, kb Keyboard, l Lang) string {
	w := kb.Window
	if !kb.Partial || w.Width == 0 || v.Status() != session.Running {
		return ""
	}
	r := v.Rules()
	return T(l, MsgWindow,
		strings.ToLower(ColumnLabel(w.Origin.X)), strings.ToLower(ColumnLabel(w.Origin.X+w.Width-1)),
		RowLabel(w.Origin.Y+w.Height-1, r.Height), RowLabel(w.Origin.Y, r.Height))
}
