package render

import (
	"fmt"
	"strings"
)

// KeyboardText returns a keyboard as text for a terminal, where a person
// types a button's number instead of tapping it. Every button is numbered
// from 1 in reading order, so a cell keeps its number from move to move,
// and buttons returns them in that order; only live buttons show their
// number. Cells take four columns each, so the rows line up: "[ 7]" for a
// live cell, " ⚫ " for a stone, "  · " or " h8 " for anything else;
// controls show their number and label.
func KeyboardText(kb Keyboard) (text string, buttons []Button) {
	var sb strings.Builder
	for r, row := range kb.Rows {
		board := r < kb.Window.Height
		for i, b := range row {
			buttons = append(buttons, b)
			if i > 0 {
				sb.WriteByte(' ')
			}
			switch {
			case b.Live():
				fmt.Fprintf(&sb, "[%2d]", len(buttons))
				if !board {
					sb.WriteString(" " + b.Label)
				}
			case isStoneLabel(b.Label):
				// Stones are emoji, two columns wide in a terminal.
				sb.WriteString(" " + b.Label + " ")
			default:
				fmt.Fprintf(&sb, "%3s ", b.Label)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String(), buttons
}

// isStoneLabel reports whether label is a stone of some family.
func isStoneLabel(label string) bool {
	for _, g := range []glyphs{ticTacToeGlyphs, gomokuGlyphs} {
		for i := range 2 {
			if label == g.stone[i] || label == g.marked[i] {
				return true
			}
		}
	}
	return false
}
