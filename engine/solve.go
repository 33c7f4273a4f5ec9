package engine

import "context"

// solver searches the whole game tree of a position with few empty cells.
// Scores are from the point of view of the side to move: a win is worth
// more the earlier it comes, a loss costs less the later it comes, a draw
// is zero. Values depend only on the position, so they are memoised by it.
type solver struct {
	b    *Board
	memo map[string]int
	key  []byte
}

func newSolver(b *Board) *solver {
	return &solver{b: b, memo: make(map[string]int), key: make([]byte, len(b.cells))}
}

// bestMoves returns every move with the best game-theoretic value.
func (s *solver) bestMoves(ctx context.Context) ([]Point, error) {
	var best []Point
	bestScore := 0
	for _, p := range s.b.LegalMoves() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		score := -s.after(p)
		switch {
		case best == nil || score > bestScore:
			best, bestScore = []Point{p}, score
		case score == bestScore:
			best = append(best, p)
		}
	}
	return best, nil
}

// after returns the value of the position after p, for the side to move
// then.
func (s *solver) after(p Point) int {
	_ = s.b.Play(p)
	v := s.value()
	_ = s.b.Undo()
	return v
}

// value returns the value of the current position for the side to move.
func (s *solver) value() int {
	empty := len(s.b.cells) - len(s.b.moves)
	switch s.b.outcome.Status {
	case Won:
		return -(empty + 1) // the previous move won
	case Draw:
		return 0
	}
	for i, c := range s.b.cells {
		s.key[i] = byte(c)
	}
	if v, ok := s.memo[string(s.key)]; ok {
		return v
	}
	key := string(s.key)
	best := -len(s.b.cells) - 1
	for _, p := range s.b.LegalMoves() {
		if v := -s.after(p); v > best {
			best = v
		}
	}
	s.memo[key] = best
	return best
}
