package render

import (
	"slices"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// glyphs are the cell pictures of one family of games.
type glyphs struct {
	empty string
	// stone and marked are indexed by engine.Black-1 and engine.White-1;
	// marked shows the last move, or the winning line once won.
	stone, marked [2]string
}

var (
	ticTacToeGlyphs = glyphs{empty: "⬜", stone: [2]string{"❌", "⭕"}, marked: [2]string{"❎", "🅾️"}}
	gomokuGlyphs    = glyphs{empty: "🟫", stone: [2]string{"⚫", "⚪"}, marked: [2]string{"⬛", "⬜"}}
)

// glyphsFor picks the pictures for a game: X and O on boards of K ≤ 4,
// black and white stones for five in a row.
func glyphsFor(r engine.Rules) glyphs {
	if r.K >= 5 {
		return gomokuGlyphs
	}
	return ticTacToeGlyphs
}

// Stone returns the picture of side s's stone in a game of rules r.
func Stone(r engine.Rules, s engine.Stone) string { return glyphsFor(r).stone[s-1] }

// fullwidth holds the wide forms of the column letters, so that a header
// row lines up with the emoji cells below it.
const fullwidthA = 'Ａ'

// Text returns the whole message that shows a game: who plays whom, the
// board, and a status line, in language l.
func Text(v session.View, l Lang) string {
	var sb strings.Builder
	r := v.Rules()
	sb.WriteString(Stone(r, engine.Black) + " " + SeatName(v.Seat(engine.Black), l))
	sb.WriteString("  vs  ")
	sb.WriteString(Stone(r, engine.White) + " " + SeatName(v.Seat(engine.White), l))
	sb.WriteString("\n\n")
	sb.WriteString(Grid(v))
	sb.WriteString("\n")
	sb.WriteString(Status(v, l))
	return sb.String()
}

// Grid returns the emoji board of a game, one line per row, with column
// letters and row numbers on boards larger than 3×3.
func Grid(v session.View) string {
	r := v.Rules()
	b := v.Board()
	g := glyphsFor(r)
	marked := v.WinningLine()
	if last, ok := v.LastMove(); ok && len(marked) == 0 {
		marked = []engine.Point{last}
	}
	labels := r.Width > 3 || r.Height > 3
	var sb strings.Builder
	if labels {
		sb.WriteString("    ")
		for x := 0; x < r.Width; x++ {
			sb.WriteRune(fullwidthA + rune(x))
		}
		sb.WriteString("\n")
	}
	for y := 0; y < r.Height; y++ {
		if labels {
			n := RowLabel(y, r.Height)
			sb.WriteString(strings.Repeat(" ", 3-len(n)) + n + " ")
		}
		for x := 0; x < r.Width; x++ {
			p := engine.Point{X: x, Y: y}
			switch s := b.At(p); {
			case s == engine.Empty:
				sb.WriteString(g.empty)
			case slices.Contains(marked, p):
				sb.WriteString(g.marked[s-1])
			default:
				sb.WriteString(g.stone[s-1])
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// Status returns the line under the board: whose turn it is, or how the
// game ended.
func Status(v session.View, l Lang) string {
	r := v.Rules()
	name := func(s engine.Stone) string { return Stone(r, s) + " " + SeatName(v.Seat(s), l) }
	switch v.Status() {
	case session.Running:
		return T(l, MsgTurn, name(v.ToMove()))
	case session.Won:
		return T(l, MsgWins, name(v.Winner()))
	case session.Drawn:
		return T(l, MsgDraw)
	case session.Resigned:
		return T(l, MsgResigned, name(v.Winner().Opponent())) + " " + T(l, MsgWins, name(v.Winner()))
	}
	return T(l, MsgExpired)
}

// SeatName returns how a seat is called: the person's name, or the AI and
// its level.
func SeatName(s session.Seat, l Lang) string {
	if s.IsAI() {
		return T(l, MsgAI, s.AI)
	}
	if s.User.Name != "" {
		return s.User.Name
	}
	return s.User.ID
}
