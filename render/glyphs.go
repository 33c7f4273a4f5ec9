package render

import (
	"strings"

	"github.com/boardbot/boardbot/engine"
)

// glyphs are the cell pictures of one family of games.
//
// The board text is a grid of emoji, and chat clients draw every emoji in
// the same square box whatever the font around it, on phones and desktops
// alike (Telegram draws its own emoji images, Discord draws Twemoji). So
// every cell and every label is one emoji of Emoji_Presentation, and no
// plain character, space or full-width letter appears between the first
// and last glyph of a board line: those have font-dependent widths and
// would shift the columns.
//
//   - Cells: ⬜ empty, ❌ ⭕ stones for the tic-tac-toe family (K ≤ 4);
//     🟫 empty (a wooden board), ⚫ ⚪ stones for five in a row.
//   - The last move and, once won, the winning line keep what tells the
//     sides apart and never look like an empty cell of any board: ✖️ 🅾️
//     in tic-tac-toe (still an X and an O; ❎ would be a green tick box),
//     ◼️ ◻️ in gomoku (still black and white; a square stone stands out
//     among round ones, and ◻️ is smaller than ⬜, the empty cell of 3×3).
//   - Row numbers are keycap digits (1️⃣ … 9️⃣, 1️⃣0️⃣ … 1️⃣9️⃣). On boards of
//     ten rows or more every row label is two keycaps wide, the numbers
//     below ten padded on the left with ▪️, so the board's left edge is one
//     straight line.
//   - Column letters are the regional-indicator letters 🇦 … 🇸, the only
//     emoji alphabet. Two of them side by side make a flag (🇨🇩, 🇩🇪…), so
//     a zero-width non-joiner (U+200C) separates each pair: Unicode's
//     grapheme rules and font shapers both refuse to join across it, and it
//     has no width. The corner above the row labels is ▪️ padding.
//
// Known risk: a client that has no picture for a lone regional indicator
// falls back to a plain letter, and then only the header row drifts; the
// cells, the row labels and the coordinates in the status line stay right,
// and boards too large for one keyboard also come as a picture (Picture).
type glyphs struct {
	empty string
	// stone and marked are indexed by engine.Black-1 and engine.White-1;
	// marked shows the last move, or the winning line once won.
	stone, marked [2]string
}

var (
	ticTacToeGlyphs = glyphs{empty: "⬜", stone: [2]string{"❌", "⭕"}, marked: [2]string{"✖️", "🅾️"}}
	gomokuGlyphs    = glyphs{empty: "🟫", stone: [2]string{"⚫", "⚪"}, marked: [2]string{"◼️", "◻️"}}
)

// Label glyphs: padding, keycap digits and regional-indicator letters.
const (
	padGlyph   = "▪️"
	keycapTail = "\uFE0F\u20E3"
	zwnj       = "\u200C"
	riA        = '\U0001F1E6'
)

// glyphsFor picks the pictures for a game: X and O on boards of K ≤ 4,
// black and white stones for five in a row.
// hintGlyph marks the empty cell a hint suggests, on the emoji board and
// on its button: a target, unlike any stone or empty cell.
const hintGlyph = "🎯"

func glyphsFor(r engine.Rules) glyphs {
	if r.K >= 5 {
		return gomokuGlyphs
	}
	return ticTacToeGlyphs
}

// Stone returns the picture of side s's stone in a game of rules r.
func Stone(r engine.Rules, s engine.Stone) string { return glyphsFor(r).stone[s-1] }

// cell returns the picture of a cell holding s: empty, a stone, or a
// marked stone.
func (g glyphs) cell(s engine.Stone, isMarked bool) string {
	switch {
	case s == engine.Empty:
		return g.empty
	case isMarked:
		return g.marked[s-1]
	}
	return g.stone[s-1]
}

// rowLabelWidth returns how many glyphs wide the row labels of a board
// are: two from ten rows up, else one.
func rowLabelWidth(r engine.Rules) int {
	if r.Height >= 10 {
		return 2
	}
	return 1
}

// emojiRowLabel returns the keycap label of row y, padded to the board's
// label width.
func emojiRowLabel(y int, r engine.Rules) string {
	n := RowLabel(y, r.Height)
	var sb strings.Builder
	for range rowLabelWidth(r) - len(n) {
		sb.WriteString(padGlyph)
	}
	for _, d := range n {
		sb.WriteRune(d)
		sb.WriteString(keycapTail)
	}
	return sb.String()
}

// emojiColumnHeader returns the header line of column letters, without its
// newline.
func emojiColumnHeader(r engine.Rules) string {
	var sb strings.Builder
	for range rowLabelWidth(r) {
		sb.WriteString(padGlyph)
	}
	for x := range r.Width {
		if x > 0 {
			sb.WriteString(zwnj)
		}
		sb.WriteRune(riA + rune(x))
	}
	return sb.String()
}
