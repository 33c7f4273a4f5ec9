package engine

import (
	"context"
	"math/rand/v2"
)

// medium plays by one-ply rules in order: win now, block the opponent's
// win, take the centre, take a corner (3×3) or a cell next to a stone, else
// play anywhere.
type medium struct{ rng *rand.Rand }

// Move returns the first move the rules find.
func (m medium) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	b = b.Clone()
	if ps := winningMoves(b, b.ToMove()); len(ps) > 0 {
		return pick(m.rng, ps), nil
	}
	if ps := winningMoves(b, b.ToMove().Opponent()); len(ps) > 0 {
		return pick(m.rng, ps), nil
	}
	r := b.Rules()
	if c := (Point{r.Width / 2, r.Height / 2}); r.Width%2 == 1 && r.Height%2 == 1 && b.At(c) == Empty {
		return c, nil
	}
	if r.Width == 3 && r.Height == 3 {
		var corners []Point
		for _, c := range []Point{{0, 0}, {2, 0}, {0, 2}, {2, 2}} {
			if b.At(c) == Empty {
				corners = append(corners, c)
			}
		}
		if len(corners) > 0 {
			return pick(m.rng, corners), nil
		}
	}
	if ps := nearStones(b, 1); len(ps) > 0 {
		return pick(m.rng, ps), nil
	}
	return pick(m.rng, b.LegalMoves()), nil
}

// winningMoves returns the empty cells where side s would complete a
// winning line, whoever is to move.
func winningMoves(b *Board, s Stone) []Point {
	var ps []Point
	for _, p := range b.LegalMoves() {
		if b.winsAt(p, s) {
			ps = append(ps, p)
		}
	}
	return ps
}

// winsAt reports whether a stone of side s at the empty cell p would make a
// winning line.
func (b *Board) winsAt(p Point, s Stone) bool {
	i := p.Y*b.rules.Width + p.X
	b.cells[i] = s
	win := b.winningLine(p, s) != nil
	b.cells[i] = Empty
	return win
}

// nearStones returns the empty cells within distance d (in both axes) of a
// stone, row by row.
func nearStones(b *Board, d int) []Point {
	var ps []Point
	for _, p := range b.LegalMoves() {
		if b.hasNeighbour(p, d) {
			ps = append(ps, p)
		}
	}
	return ps
}

// hasNeighbour reports whether a stone lies within distance d of p.
func (b *Board) hasNeighbour(p Point, d int) bool {
	for dy := -d; dy <= d; dy++ {
		for dx := -d; dx <= d; dx++ {
			if (dx != 0 || dy != 0) && b.At(Point{p.X + dx, p.Y + dy}) != Empty {
				return true
			}
		}
	}
	return false
}
