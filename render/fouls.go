package render

import "github.com/boardbot/boardbot/engine"

// The messages of renju's forbidden points.
const (
	// MsgForbidden refuses a move on a point forbidden to Black; its
	// argument is the foul's name (FoulName).
	MsgForbidden   Key = "forbidden"
	MsgDoubleThree Key = "foul_double_three"
	MsgDoubleFour  Key = "foul_double_four"
	MsgOverline    Key = "foul_overline"
)

// forbiddenGlyph marks an empty point forbidden to Black, on the emoji
// grid and on buttons, while Black is to move.
const forbiddenGlyph = "⛔"

// FoulName returns the name of a renju foul in language l: "double three",
// "double four", "overline"; "三三", "四四", "长连".
func FoulName(l Lang, f engine.Foul) string {
	switch f {
	case engine.DoubleThree:
		return T(l, MsgDoubleThree)
	case engine.DoubleFour:
		return T(l, MsgDoubleFour)
	case engine.Overline:
		return T(l, MsgOverline)
	}
	return f.String()
}
