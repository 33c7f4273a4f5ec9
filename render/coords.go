package render

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardbot/boardbot/engine"
)

// Coordinates name cells the way the board labels them: a column letter
// from "a" at the left, then a row number from 1 at the bottom, as in
// "h8". Every board shows them, 3×3 too ("b2" is its centre).

// ColumnLabel returns the letter of column x: "A" for the leftmost.
func ColumnLabel(x int) string { return string(rune('A' + x)) }

// RowLabel returns the number shown for row y (counted from the top) on a
// board of the given height: rows are numbered from 1 at the bottom.
func RowLabel(y, height int) string { return strconv.Itoa(height - y) }

// FormatCoord returns the name of p on a board of rules r, such as "h8".
func FormatCoord(p engine.Point, r engine.Rules) string {
	return strings.ToLower(ColumnLabel(p.X)) + RowLabel(p.Y, r.Height)
}

// ErrBadCoord is returned by ParseCoord for text that names no cell of the
// board.
var ErrBadCoord = errors.New("render: not a cell")

// coordError is a ParseCoord error: it wraps ErrBadCoord and carries its
// catalog message, which quotes the input.
type coordError struct {
	input, why string
}

// Error returns the error's text, quoting the input.
func (e *coordError) Error() string {
	if e.why != "" {
		return fmt.Sprintf("%v: %q %s", ErrBadCoord, e.input, e.why)
	}
	return fmt.Sprintf("%v: %q", ErrBadCoord, e.input)
}

// Unwrap returns ErrBadCoord.
func (e *coordError) Unwrap() error { return ErrBadCoord }

// Message returns the catalog message of the error.
func (e *coordError) Message() (Key, []any) { return MsgBadCoord, []any{e.input} }

// ParseCoord reads a cell name such as "h8", "H 8" or "8h" on a board of
// rules r. It returns an error wrapping ErrBadCoord for anything else,
// including cells off the board; ErrorText gives its message.
func ParseCoord(s string, r engine.Rules) (engine.Point, error) {
	bad := &coordError{input: s}
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	if t == "" || len(t) > 3 {
		return engine.Point{}, bad
	}
	var letter byte
	var digits string
	switch {
	case t[0] >= 'a' && t[0] <= 'z':
		letter, digits = t[0], t[1:]
	case t[len(t)-1] >= 'a' && t[len(t)-1] <= 'z':
		letter, digits = t[len(t)-1], t[:len(t)-1]
	default:
		return engine.Point{}, bad
	}
	if digits == "" || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return engine.Point{}, bad
	}
	row, err := strconv.Atoi(digits)
	if err != nil {
		return engine.Point{}, bad
	}
	p := engine.Point{X: int(letter - 'a'), Y: r.Height - row}
	if !r.Contains(p) {
		bad.why = fmt.Sprintf("is off the %dx%d board", r.Width, r.Height)
		return engine.Point{}, bad
	}
	return p, nil
}
