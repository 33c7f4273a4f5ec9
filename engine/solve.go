package engine

import (
	"context"
	"math/rand/v2"
)

// smallSolver plays boards of at most solveMaxCells cells perfectly: a
// negamax alpha-beta search to the end of the game with a transposition
// table keyed by the position reduced under the board's symmetries. A win
// is worth more the sooner it comes, so won games are converted. The table
// survives between moves of one player and is bounded.
type smallSolver struct {
	rules Rules
	syms  [][]int // cell permutations that map the board onto itself
	memo  map[uint32]smallEntry
	nodes int
	err   error
	ctx   context.Context
}

// smallEntry is a stored score and whether it is exact or a bound.
type smallEntry struct {
	score int8
	bound uint8
}

// smallMemoMax bounds the solver's table; it is cleared when full.
const smallMemoMax = 1 << 21

func newSmallSolver(r Rules) *smallSolver {
	s := &smallSolver{rules: r, memo: make(map[uint32]smallEntry)}
	w, h := r.Width, r.Height
	maps := []func(x, y int) (int, int){
		func(x, y int) (int, int) { return x, y },
		func(x, y int) (int, int) { return w - 1 - x, y },
		func(x, y int) (int, int) { return x, h - 1 - y },
		func(x, y int) (int, int) { return w - 1 - x, h - 1 - y },
	}
	if w == h {
		maps = append(maps,
			func(x, y int) (int, int) { return y, x },
			func(x, y int) (int, int) { return h - 1 - y, x },
			func(x, y int) (int, int) { return y, w - 1 - x },
			func(x, y int) (int, int) { return h - 1 - y, w - 1 - x },
		)
	}
	for _, f := range maps {
		perm := make([]int, w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				tx, ty := f(x, y)
				perm[ty*w+tx] = y*w + x
			}
		}
		s.syms = append(s.syms, perm)
	}
	return s
}

// best returns a move of the best game-theoretic value for the side to
// move on b, choosing among equal ones with rng.
func (s *smallSolver) best(ctx context.Context, b *Board, rng *rand.Rand) (Point, error) {
	if len(s.memo) > smallMemoMax {
		clear(s.memo)
	}
	s.ctx, s.err = ctx, nil
	c := make([]uint8, len(b.cells))
	for i, v := range b.cells {
		c[i] = uint8(v)
	}
	side := uint8(b.ToMove())
	empties := len(c) - b.MoveCount()
	moves := make([]int, 0, empties)
	for i, v := range c {
		if v == 0 {
			moves = append(moves, i)
		}
	}
	rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	best, alpha := moves[0], -128
	for _, m := range moves {
		var score int
		c[m] = side
		if s.wins(c, m, side) {
			score = empties
		} else {
			score = -s.negamax(c, 3-side, empties-1, -127, -alpha+1)
		}
		c[m] = 0
		if s.err != nil {
			return Point{}, s.err
		}
		if score > alpha {
			best, alpha = m, score
		}
	}
	w := s.rules.Width
	return Point{best % w, best / w}, nil
}

// negamax returns the value of c for side, which has empties cells left to
// play, within (alpha, beta): +n for a win with n cells still empty after
// it, -n for a loss, 0 for a draw.
func (s *smallSolver) negamax(c []uint8, side uint8, empties, alpha, beta int) int {
	if empties == 0 {
		return 0
	}
	s.nodes++
	if s.nodes%4096 == 0 && s.err == nil {
		s.err = s.ctx.Err()
	}
	if s.err != nil {
		return 0
	}
	for i, v := range c {
		if v == 0 && s.wins(c, i, side) {
			return empties
		}
	}
	key := s.key(c)
	if e, ok := s.memo[key]; ok {
		v := int(e.score)
		switch {
		case e.bound == ttExact,
			e.bound == ttLower && v >= beta,
			e.bound == ttUpper && v <= alpha:
			return v
		}
	}
	// The opponent's winning cell, if any, is the only move worth trying.
	var forced []int
	for i, v := range c {
		if v == 0 && s.wins(c, i, 3-side) {
			forced = append(forced, i)
		}
	}
	alpha0, best := alpha, -128
	try := func(i int) bool {
		c[i] = side
		v := -s.negamax(c, 3-side, empties-1, -beta, -alpha)
		c[i] = 0
		best = max(best, v)
		alpha = max(alpha, v)
		return alpha >= beta
	}
	if len(forced) > 0 {
		try(forced[0])
	} else {
		for i, v := range c {
			if v == 0 && try(i) {
				break
			}
		}
	}
	if s.err != nil {
		return 0
	}
	bound := ttExact
	switch {
	case best <= alpha0:
		bound = ttUpper
	case best >= beta:
		bound = ttLower
	}
	s.memo[key] = smallEntry{int8(best), bound}
	return best
}

// key returns the smallest encoding of c over the board's symmetries.
func (s *smallSolver) key(c []uint8) uint32 {
	best := ^uint32(0)
	for _, perm := range s.syms {
		var k uint32
		for i, j := range perm {
			k |= uint32(c[j]) << (2 * i)
		}
		best = min(best, k)
	}
	return best
}

// wins reports whether a stone of side at i makes a winning line in c.
func (s *smallSolver) wins(c []uint8, i int, side uint8) bool {
	w, h, k := s.rules.Width, s.rules.Height, s.rules.K
	x, y := i%w, i/w
	for _, d := range directions {
		n := 1
		for _, sg := range [2]int{1, -1} {
			for qx, qy := x+sg*d.X, y+sg*d.Y; qx >= 0 && qx < w && qy >= 0 && qy < h && c[qy*w+qx] == side; qx, qy = qx+sg*d.X, qy+sg*d.Y {
				n++
			}
		}
		if n >= k && (!s.rules.Exact || n == k) {
			return true
		}
	}
	return false
}
