package engine

import (
	"context"
	"math/rand/v2"
	"testing"
)

// memoValue is an independent negamax for the side to move (+1 win, 0
// draw, -1 loss) with a plain memo, used to check hard's conversions.
type memoValue map[string]int8

func (m memoValue) value(b *Board) int {
	switch b.Outcome().Status {
	case Won:
		return -1
	case Draw:
		return 0
	}
	key := show(b)
	if v, ok := m[key]; ok {
		return int(v)
	}
	best := -1
	for _, p := range b.LegalMoves() {
		_ = b.Play(p)
		best = max(best, -m.value(b))
		_ = b.Undo()
		if best == 1 {
			break
		}
	}
	m[key] = int8(best)
	return best
}

// proveSmall walks every sequence of opponent replies against hard on an
// empty board of r, hard playing me, visiting each position once. Where at
// most checkEmpties cells are empty it checks with memoValue that hard's
// move keeps the game-theoretic value (a won position stays won, so it is
// converted; a drawn one stays drawn). It fails on a loss unless mayLose
// (the side is lost from the start), and returns the games finished, won,
// drawn and lost.
func proveSmall(t *testing.T, r Rules, me Stone, checkEmpties int, mayLose bool) (games, wins, draws, losses int) {
	t.Helper()
	ai, _ := NewPlayer(Hard, rand.New(rand.NewPCG(5, uint64(me))))
	b, _ := NewBoard(r)
	seen := map[string]bool{}
	mv := memoValue{}
	var walk func()
	walk = func() {
		if b.Over() {
			games++
			switch o := b.Outcome(); {
			case o.Status == Draw:
				draws++
			case o.Winner == me:
				wins++
			case mayLose:
				losses++
			default:
				t.Fatalf("hard as %v lost on %v:\n%s", me, r, show(b))
			}
			return
		}
		key := show(b)
		if seen[key] {
			return
		}
		seen[key] = true
		if b.ToMove() != me {
			for _, p := range b.LegalMoves() {
				_ = b.Play(p)
				walk()
				_ = b.Undo()
				if t.Failed() {
					return
				}
			}
			return
		}
		check := r.Cells()-b.MoveCount() <= checkEmpties
		before := 0
		if check {
			before = mv.value(b)
		}
		p, err := ai.Move(context.Background(), b)
		if err != nil {
			t.Fatalf("hard move: %v\n%s", err, show(b))
		}
		if err := b.Play(p); err != nil {
			t.Fatalf("hard played illegal %v: %v\n%s", p, err, show(b))
		}
		if check && -mv.value(b) != before {
			t.Fatalf("hard as %v spoiled a position of value %d with %v on %v:\n%s", me, before, p, r, show(b))
		}
		walk()
		_ = b.Undo()
	}
	walk()
	return games, wins, draws, losses
}

func TestHardPerfectOnSmallBoards(t *testing.T) {
	// 3×3 and 4×4 K4 are draws, 4×4 K3 a first-player win: hard as white
	// may lose it, but only by force.
	boards := []struct {
		r            Rules
		slow         bool
		checkEmpties int
	}{
		{TicTacToe(), false, 9},
		{Rules{4, 4, 3, false, false}, false, 16},
		{Rules{4, 4, 4, false, false}, true, 11},
	}
	for _, tc := range boards {
		if tc.slow && !*long {
			t.Logf("%v: skipped without -long", tc.r)
			continue
		}
		for _, me := range []Stone{Black, White} {
			mayLose := tc.r.K == 3 && tc.r.Width == 4 && me == White
			games, wins, draws, losses := proveSmall(t, tc.r, me, tc.checkEmpties, mayLose)
			t.Logf("%v, hard as %v: %d games to the end, %d won, %d drawn, %d lost (by force)", tc.r, me, games, wins, draws, losses)
			if games == 0 || wins == 0 {
				t.Errorf("%v as %v: the walk won nothing in %d games", tc.r, me, games)
			}
			if tc.r.K == 3 && tc.r.Width == 4 && me == Black && wins != games {
				t.Errorf("%v: hard first must win every game (the first player wins 4×4 K3), won %d of %d", tc.r, wins, games)
			}
		}
	}
}

func TestSmallSolverValues(t *testing.T) {
	// The empty 3×3 board is a draw; 4×4 three in a row is a first-player
	// win; an X with two open lines to finish wins at once.
	tests := []struct {
		r     Rules
		moves []Point
		sign  int
	}{
		{TicTacToe(), nil, 0},
		{Rules{4, 4, 3, false, false}, nil, 1},
		{TicTacToe(), []Point{{0, 0}, {1, 0}, {1, 1}, {2, 2}, {0, 2}, {0, 1}}, 1},
	}
	for _, tc := range tests {
		b := mustPlay(t, tc.r, tc.moves...)
		s := newSmallSolver(tc.r)
		c := make([]uint8, len(b.cells))
		for i, v := range b.cells {
			c[i] = uint8(v)
		}
		s.ctx = context.Background()
		v := s.negamax(c, uint8(b.ToMove()), len(c)-b.MoveCount(), -127, 127)
		if sign(v) != tc.sign {
			t.Errorf("%v after %v: value %d, want sign %d\n%s", tc.r, tc.moves, v, tc.sign, show(b))
		}
	}
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
