package engine

import (
	"context"
	"math/rand/v2"
)

// medium looks one move ahead. On 3×3 it plays by rules in order: win now,
// block the opponent's win, take the centre, take a corner, else a cell
// next to a stone. On larger boards it wins when it can, blocks a four,
// makes an unstoppable four of its own (which wins first), and, on boards
// of gomoku's size, blocks an open three: a move that leaves the opponent
// no unstoppable four (on smaller boards that defence draws nearly every
// game, even against hard, and medium must stay beatable); else it
// scores every empty cell near the stones by what a stone there makes for
// itself (attack) and what it takes from the opponent (defence), from the
// line patterns, and plays one of the best few at random. It does not see
// the opponent's double threats coming: a thoughtful player beats it.
type medium struct{ rng *rand.Rand }

// Move returns the move the rules or the scan choose.
func (m medium) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	r := b.Rules()
	if r.Width == 3 && r.Height == 3 {
		return m.ticTacToe(b.Clone()), nil
	}
	p := newPos(b)
	ms, th := p.scan(nil)
	switch {
	case th.myFive >= 0:
		return p.point(int(th.myFive)), nil
	case th.oppFive >= 0 && !th.oppFiveFoul:
		return p.point(int(th.oppFive)), nil
	case len(ms) == 0:
		// Under renju every cell near the stones is a foul for Black.
		return pick(m.rng, b.LegalMoves()), nil
	case th.oppFive < 0 && th.myFlex >= 0:
		// An open four: the opponent has no four to answer with.
		return p.point(int(th.myFlex)), nil
	}
	me, op := p.side, 3-p.side
	for i := range ms {
		c := int(ms[i].cell)
		_, attack := p.level(c, me)
		ms[i].value = attack + p.lineDefence(c, op)
	}
	sortMoves(ms)
	if th.oppFive < 0 && th.oppFlex && r.Width >= gomokuSize && r.Height >= gomokuSize {
		if blocks := p.blocks(ms, mediumChoices); len(blocks) > 0 {
			ms = blocks
		}
	}
	n := 1
	for n < len(ms) && n < mediumChoices && ms[n].value*4 >= ms[0].value*3 {
		n++
	}
	return p.point(int(ms[m.rng.IntN(n)].cell)), nil
}

// gomokuSize is the side of the smallest board on which medium blocks
// open threes: gomoku's 15×15.
const gomokuSize = 15

// mediumChoices is the most moves medium chooses between at random.
const mediumChoices = 4

// blocks returns the first most moves of ms, in their order, after which
// the opponent has no cell that makes an unstoppable four: the blocks of
// every open three. It is empty when no move blocks them all (the
// opponent made two open threes at once).
func (p *pos) blocks(ms []move, most int) []move {
	var out, buf []move
	for _, m := range ms {
		if len(out) == most {
			break
		}
		p.play(int(m.cell))
		// The counts of cells by threat level say it without a scan, but
		// they include Black's fouls, which only the scan leaves out.
		flex := p.levels[p.side-1][tFlex] > 0
		if flex && p.renju && p.side == cBlack {
			var th threats
			buf, th = p.scanFours(buf[:0])
			flex = th.myFlex >= 0
		}
		p.undo()
		if !flex {
			out = append(out, m)
		}
	}
	return out
}

// lineDefence is what a stone at i takes from side s as medium sees it:
// an eighth of the line patterns s would make there. Medium blocks a win at
// once (Move does that first) but is an attacker: it weighs the opponent's
// open threes lightly against its own plans and does not see the
// opponent's coming double threats.
func (p *pos) lineDefence(i int, s uint8) int32 {
	var v int32
	for _, pt := range p.pat[s-1][i] {
		v += patWeight[pt]
	}
	return v / 8
}

// ticTacToe plays the 3×3 rules on b, which it may change.
func (m medium) ticTacToe(b *Board) Point {
	if ps := winningMoves(b, b.ToMove()); len(ps) > 0 {
		return pick(m.rng, ps)
	}
	if ps := winningMoves(b, b.ToMove().Opponent()); len(ps) > 0 {
		return pick(m.rng, ps)
	}
	if c := (Point{1, 1}); b.At(c) == Empty {
		return c
	}
	var corners []Point
	for _, c := range []Point{{0, 0}, {2, 0}, {0, 2}, {2, 2}} {
		if b.At(c) == Empty {
			corners = append(corners, c)
		}
	}
	if len(corners) > 0 {
		return pick(m.rng, corners)
	}
	return pick(m.rng, b.LegalMoves())
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
