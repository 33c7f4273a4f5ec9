package engine

import "fmt"

// Level is how strongly an AI player plays.
type Level uint8

const (
	// Easy plays loosely: a beginner can win.
	Easy Level = iota + 1
	// Medium takes a win, blocks a loss, and otherwise plays sensibly.
	Medium
	// Hard is the strongest the engine has.
	Hard
	// Adaptive plays at the rung of the strength ladder that matches the
	// player's rating against the AI: a game chooses its Rung when it
	// starts, and NewRungPlayer plays it.
	Adaptive
)

// Levels lists the fixed levels, weakest first.
var Levels = []Level{Easy, Medium, Hard}

// AllLevels lists every level a game may be started at: the fixed ones,
// then Adaptive.
var AllLevels = []Level{Easy, Medium, Hard, Adaptive}

// AdaptiveAlias is the short word for Adaptive that ParseLevel also takes.
const AdaptiveAlias = "adapt"

// String returns "easy", "medium", "hard" or "adaptive".
func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	case Adaptive:
		return "adaptive"
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// ParseLevel returns the level named s (AdaptiveAlias included), or an
// error wrapping ErrBadLevel.
func ParseLevel(s string) (Level, error) {
	if s == AdaptiveAlias {
		return Adaptive, nil
	}
	for _, l := range AllLevels {
		if l.String() == s {
			return l, nil
		}
	}
	return 0, fmt.Errorf("engine: level %q: %w", s, ErrBadLevel)
}

// Valid reports whether l is one of AllLevels.
func (l Level) Valid() bool { return l >= Easy && l <= Adaptive }
