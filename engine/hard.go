package engine

import "context"

// solveMaxCells is the largest board (in cells) hard solves outright.
const solveMaxCells = 16

// openBoard is the smallest side on which hard answers the first stone
// with a random neighbouring cell instead of searching.
const openBoard = 11

// hard is the strongest player. On boards of at most solveMaxCells cells
// it plays perfectly by solving the game; on larger boards it runs the
// threat-space and alpha-beta search of search.go within its time or node
// budget.
type hard struct {
	opts  Options
	small *smallSolver
}

// Move returns hard's move. It stops searching when ctx ends and returns
// the best move found so far; it returns ctx's error only when ctx ended
// before the search began.
func (h *hard) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	r := b.Rules()
	if r.Cells() <= solveMaxCells {
		if h.small == nil || h.small.rules != r {
			h.small = newSmallSolver(r)
		}
		return h.small.best(ctx, b, h.opts.Rand)
	}
	switch n := b.MoveCount(); {
	case n == 0:
		return Point{r.Width / 2, r.Height / 2}, nil
	case n == 1 && min(r.Width, r.Height) >= openBoard:
		// On an open board any cell touching the first stone is as good as
		// another: vary. Small boards are searched from the start.
		last, _ := b.LastMove()
		var ps []Point
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if q := (Point{last.X + dx, last.Y + dy}); b.Legal(q) {
					ps = append(ps, q)
				}
			}
		}
		return pick(h.opts.Rand, ps), nil
	}
	p := newPos(b)
	// A time-bound search starts from what the searches before it stored:
	// entries are keyed by the whole position, so those of earlier moves
	// of the game order and cut the new search, and those of other games
	// are never matched. A node-bound search starts clean, so that its
	// move depends on the position alone.
	tt := getTT(h.opts.TTBytes, h.opts.MaxNodes > 0)
	defer putTT(tt)
	s := newSearcher(p, tt, newLimits(ctx, h.opts.ThinkTime, h.opts.MaxNodes))
	cell, _ := s.best()
	if cell < 0 {
		// Black has no allowed cell near the stones: any allowed cell.
		return pick(h.opts.Rand, b.LegalMoves()), nil
	}
	return p.point(cell), nil
}
