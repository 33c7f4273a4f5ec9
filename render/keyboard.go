package render

import (
	"slices"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// ActionKind says what tapping a button does.
type ActionKind uint8

const (
	// Noop places nothing: an occupied cell or a cell of a finished
	// game's board, which carries Game and Cell so that a tap can be told
	// why, or a control with nothing to do, which carries nothing.
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
	// Undo asks to take back the tapper's last move in Game, at move
	// MoveNo: at once against the AI, by asking the opponent in a duel.
	Undo
	// UndoAccept grants the opponent's takeback request in Game, at move
	// MoveNo.
	UndoAccept
	// UndoDecline turns down the opponent's takeback request in Game, at
	// move MoveNo.
	UndoDecline
	// Show shows the game Game in a new message and makes it the one the
	// tapper's typed moves go to: an answer of ChoiceKeyboard.
	Show
	// Hint marks the move the hard AI would play for the tapper in Game,
	// at move MoveNo (session.Service.Hint).
	Hint
	// ReplayGame sends the animated replay of the finished game Game
	// (Replay); it changes nothing.
	ReplayGame
	// ExportGame sends the record of the finished game Game (Export); it
	// changes nothing.
	ExportGame
	// StatsChart sends the tapper's progress chart (Chart) again; it
	// carries nothing.
	StatsChart
)

// Action is what a button does when tapped: everything needed to act on it
// travels with the button, so adapters keep no state between taps.
type Action struct {
	Kind   ActionKind
	Game   session.GameID
	MoveNo int
	Cell   engine.Point
	// Window is the top-left cell of the board window to show (Scroll),
	// or of the window the cell was tapped in (Place on a board larger
	// than the keyboard), so that the window stays where it is.
	Window engine.Point
}

// Button is one button of a keyboard.
type Button struct {
	Label  string
	Action Action
}

// Live reports whether tapping the button does something; the adapter may
// show other buttons as disabled, or answer their taps with nothing.
func (b Button) Live() bool { return b.Action.Kind != Noop }

// Window is a rectangle of a board's cells: its top-left cell and size.
type Window struct {
	Origin        engine.Point
	Width, Height int
}

// Contains reports whether p is inside the window.
func (w Window) Contains(p engine.Point) bool {
	return p.X >= w.Origin.X && p.X < w.Origin.X+w.Width && p.Y >= w.Origin.Y && p.Y < w.Origin.Y+w.Height
}

// Keyboard is a grid of buttons, row by row: the board's cells first, then
// rows of controls.
type Keyboard struct {
	Rows [][]Button
	// Window is the part of the board whose cells are the first rows: row
	// r, column c of the keyboard is cell Origin.X+c, Origin.Y+r.
	Window Window
	// Partial reports whether Window is less than the whole board. The
	// adapter then also shows Picture, since the buttons show only part of
	// the game.
	Partial bool
}

// Buttons returns the number of buttons.
func (k Keyboard) Buttons() int {
	n := 0
	for _, r := range k.Rows {
		n += len(r)
	}
	return n
}

// Labels of buttons that are not cells.
const (
	// emptyLabel is the label of an empty cell on a whole board: a blank
	// that keeps the button tappable on every platform. On a window, empty
	// cells show their coordinates instead, so the player knows where the
	// window is.
	emptyLabel = "·"
	leftLabel  = "⬅️"
	rightLabel = "➡️"
	upLabel    = "⬆️"
	downLabel  = "⬇️"
)

// BoardKeyboard returns the keyboard of a game within layout: one button
// per cell, live on empty cells while the game runs, then the controls:
// window arrows when the board does not fit, then Resign while the game
// runs or Rematch once it is over, then the takeback and hint buttons
// (see undoButtons, hintButtons) where the layout has room for them: always on a layout
// with no row limit, and on Discord's for boards up to 4×4.
//
// A board that fits is whole: row r, column c of the keyboard is cell c, r.
// A larger board shows the largest window that fits, with its top-left
// cell at *window (moved onto the board when it hangs over an edge), or,
// when window is nil, around the last move or else the board's centre.
// Each arrow is a Scroll action carrying the next window's top-left cell,
// so moving the window needs no state on the server; an arrow at the edge
// of the board is a Noop. A layout too small for one cell and its
// controls gives a keyboard of just Resign or Rematch.
func BoardKeyboard(v session.View, l Lang, layout Layout, window *engine.Point) Keyboard {
	r := v.Rules()
	running := v.Status() == session.Running
	win := chooseWindow(r, layout)
	partial := win.Width < r.Width || win.Height < r.Height
	if win.Width > 0 {
		focus := engine.Point{X: r.Width / 2, Y: r.Height / 2}
		if last, ok := v.LastMove(); ok {
			focus = last
		}
		if h, ok := v.Hint(); ok {
			focus = h
		}
		win.Origin = engine.Point{X: focus.X - win.Width/2, Y: focus.Y - win.Height/2}
		if window != nil {
			win.Origin = *window
		}
		win.Origin = clampOrigin(win, r)
	}

	kb := Keyboard{Window: win, Partial: partial}
	b := v.Board()
	g := glyphsFor(r)
	marked := marks(v)
	fouls := v.Fouls()
	hint, hinted := v.Hint()
	for y := win.Origin.Y; y < win.Origin.Y+win.Height; y++ {
		row := make([]Button, 0, win.Width)
		for x := win.Origin.X; x < win.Origin.X+win.Width; x++ {
			p := engine.Point{X: x, Y: y}
			btn := Button{Label: emptyLabel, Action: Action{Kind: Noop, Game: v.ID(), Cell: p}}
			switch s := b.At(p); {
			case s != engine.Empty:
				btn.Label = g.cell(s, slices.Contains(marked, p))
			case running:
				btn.Action = Action{Kind: Place, Game: v.ID(), MoveNo: v.MoveNo(), Cell: p}
				if partial {
					btn.Action.Window = win.Origin
				}
				fallthrough
			default:
				if partial {
					btn.Label = FormatCoord(p, r)
				}
				if hinted && p == hint {
					btn.Label = hintGlyph
				}
			}
			if _, ok := fouls[p]; ok {
				// Still a Place: a tap is refused with the foul's name.
				btn.Label = forbiddenGlyph
			}
			row = append(row, btn)
		}
		kb.Rows = append(kb.Rows, row)
	}

	var controls []Button
	if win.Width > 0 && partial {
		controls = arrows(v.ID(), win, r)
	}
	if running {
		controls = append(controls, Button{Label: T(l, MsgResignButton), Action: Action{Kind: Resign, Game: v.ID()}})
		if undo := append(undoButtons(v, l), hintButtons(v, l)...); win.Width > 0 && layout.fits(win.Width, win.Height, len(controls)+len(undo)) {
			controls = append(controls, undo...)
		}
	} else {
		// ▶️ and 📋 come before Rematch, which stays last, where there is
		// room for them.
		if len(v.Moves()) > 0 && layout.fits(win.Width, win.Height, len(controls)+3) {
			controls = append(controls,
				Button{Label: T(l, MsgReplayButton, ""), Action: Action{Kind: ReplayGame, Game: v.ID()}},
				Button{Label: T(l, MsgExportButton, ""), Action: Action{Kind: ExportGame, Game: v.ID()}})
		}
		controls = append(controls, Button{Label: T(l, MsgRematchButton), Action: Action{Kind: Rematch, Game: v.ID()}})
	}
	kb.Rows = append(kb.Rows, chunk(controls, layout)...)
	return kb
}

// chooseWindow returns the size of the largest window of a board of rules
// r that fits layout with its controls (arrows for each direction the
// window can move, and one more button, and on a layout with no row limit
// room for the takeback and hint buttons too): the whole board when it fits, else
// the widest window, as tall as fits under it. Width comes first because
// a phone shows a row of buttons at once but scrolls a tall keyboard. The
// size is zero when not even one cell fits.
func chooseWindow(r engine.Rules, layout Layout) Window {
	best := Window{}
	for w := 1; w <= r.Width; w++ {
		for h := 1; h <= r.Height; h++ {
			controls := 1
			if layout.Rows == 0 {
				controls += maxUndoButtons + 1
			}
			if w < r.Width {
				controls += 2
			}
			if h < r.Height {
				controls += 2
			}
			if !layout.fits(w, h, controls) {
				continue
			}
			if w > best.Width || (w == best.Width && h > best.Height) {
				best = Window{Width: w, Height: h}
			}
		}
	}
	return best
}

// clampOrigin returns the window's top-left cell moved, if need be, so
// that the whole window lies on the board.
func clampOrigin(w Window, r engine.Rules) engine.Point {
	return engine.Point{
		X: max(0, min(w.Origin.X, r.Width-w.Width)),
		Y: max(0, min(w.Origin.Y, r.Height-w.Height)),
	}
}

// arrows returns the buttons that move a window: left and right when it is
// narrower than the board, up and down when it is shorter. Each moves by
// the window's size less one cell, so one row or column stays in view.
func arrows(id session.GameID, w Window, r engine.Rules) []Button {
	var out []Button
	arrow := func(label string, to engine.Point) Button {
		moved := w
		moved.Origin = to
		to = clampOrigin(moved, r)
		if to == w.Origin {
			return Button{Label: emptyLabel}
		}
		return Button{Label: label, Action: Action{Kind: Scroll, Game: id, Window: to}}
	}
	o := w.Origin
	dx, dy := max(1, w.Width-1), max(1, w.Height-1)
	if w.Width < r.Width {
		out = append(out, arrow(leftLabel, engine.Point{X: o.X - dx, Y: o.Y}))
	}
	if w.Height < r.Height {
		out = append(out,
			arrow(upLabel, engine.Point{X: o.X, Y: o.Y - dy}),
			arrow(downLabel, engine.Point{X: o.X, Y: o.Y + dy}))
	}
	if w.Width < r.Width {
		out = append(out, arrow(rightLabel, engine.Point{X: o.X + dx, Y: o.Y}))
	}
	return out
}

// chunk splits buttons into rows of at most layout.Columns buttons; the
// callers make sure the rows and buttons in all fit the layout.
func chunk(buttons []Button, layout Layout) [][]Button {
	n := layout.Columns
	if n <= 0 {
		n = len(buttons)
	}
	var rows [][]Button
	for len(buttons) > 0 {
		k := min(n, len(buttons))
		rows = append(rows, buttons[:k:k])
		buttons = buttons[k:]
	}
	return rows
}

// maxUndoButtons is the most takeback buttons a keyboard shows.
const maxUndoButtons = 2

// undoButtons returns the takeback buttons of a running game: in a duel
// with a request pending, Accept and Decline for the opponent; otherwise
// ↩️, once the game has a move its player could take back (against the
// AI, a move of the person's).
func undoButtons(v session.View, l Lang) []Button {
	act := func(k ActionKind) Action { return Action{Kind: k, Game: v.ID(), MoveNo: v.MoveNo()} }
	if v.UndoAsk() != engine.Empty {
		return []Button{
			{Label: T(l, MsgUndoAcceptButton), Action: act(UndoAccept)},
			{Label: T(l, MsgUndoDeclineButton), Action: act(UndoDecline)},
		}
	}
	first := 1
	if !v.IsDuel() && v.Seat(engine.Black).IsAI() {
		first = 2
	}
	if v.MoveNo() < first {
		return nil
	}
	return []Button{{Label: T(l, MsgUndoButton), Action: act(Undo)}}
}

// hintButtons returns 💡 while the person playing the AI is to move, has
// hints left, and sees no hint yet.
func hintButtons(v session.View, l Lang) []Button {
	if _, shown := v.Hint(); shown || v.IsDuel() || v.HintsLeft() == 0 || v.Seat(v.ToMove()).IsAI() {
		return nil
	}
	return []Button{{Label: T(l, MsgHintButton), Action: Action{Kind: Hint, Game: v.ID(), MoveNo: v.MoveNo()}}}
}
