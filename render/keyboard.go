package render

import (
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// ActionKind says what tapping a button does.
type ActionKind uint8

const (
	// Noop does nothing: an occupied cell or a finished game's board.
	Noop ActionKind = iota
	// Place puts a stone on Cell as move MoveNo.
	Place
	// Resign gives up the game.
	Resign
	// Scroll shows the window of a large board whose top-left cell is
	// Window; it changes no game state.
	Scroll
	// Rematch starts a new game with the rules of Game, colours swapped.
	Rematch
	// Accept takes up the challenge Game.
	Accept
	// Decline turns down the challenge Game (the challenged user).
	Decline
	// Cancel withdraws the challenge Game (the challenger).
	Cancel
)

// Action is what a button does when tapped: everything needed to act on it
// travels with the button, so adapters keep no state between taps.
type Action struct {
	Kind   ActionKind
	Game   session.GameID
	MoveNo int
	Cell   engine.Point
	// Window is the top-left cell of the board window to show (Scroll).
	Window engine.Point
}

// Button is one button of a keyboard.
type Button struct {
	Label  string
	Action Action
}

// Keyboard is a grid of buttons, row by row: the board's cells first, then
// rows of controls.
type Keyboard struct {
	Rows [][]Button
}

// Buttons returns the number of buttons.
func (k Keyboard) Buttons() int {
	n := 0
	for _, r := range k.Rows {
		n += len(r)
	}
	return n
}

// emptyLabel is the label of an empty cell's button: a blank that keeps
// the button tappable on every platform.
const emptyLabel = "·"

// BoardKeyboard returns the keyboard of a game: one button per cell (row r,
// column c of the keyboard is cell c, r), live on empty cells while the game
// runs, then a control row.
func BoardKeyboard(v session.View, l Lang) Keyboard {
	r := v.Rules()
	b := v.Board()
	g := glyphsFor(r)
	running := v.Status() == session.Running
	var kb Keyboard
	for y := 0; y < r.Height; y++ {
		row := make([]Button, r.Width)
		for x := range row {
			p := engine.Point{X: x, Y: y}
			btn := Button{Label: emptyLabel}
			if s := b.At(p); s != engine.Empty {
				btn.Label = g.stone[s-1]
			} else if running {
				btn.Action = Action{Kind: Place, Game: v.ID(), MoveNo: v.MoveNo(), Cell: p}
			}
			row[x] = btn
		}
		kb.Rows = append(kb.Rows, row)
	}
	if running {
		kb.Rows = append(kb.Rows, []Button{{Label: T(l, MsgResignButton), Action: Action{Kind: Resign, Game: v.ID()}}})
	}
	return kb
}
