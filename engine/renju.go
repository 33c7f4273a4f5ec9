package engine

import "fmt"

// Foul is the kind of forbidden point a cell is for Black under renju.
type Foul uint8

// The fouls, and NoFoul for a point Black may play.
const (
	NoFoul Foul = iota
	// DoubleThree makes two threes, each of which can become a straight
	// four by a move that is itself allowed.
	DoubleThree
	// DoubleFour makes two fours, in two lines or in one.
	DoubleFour
	// Overline makes six or more in a row.
	Overline
)

// String returns "double three", "double four", "overline" or "none".
func (f Foul) String() string {
	switch f {
	case DoubleThree:
		return "double three"
	case DoubleFour:
		return "double four"
	case Overline:
		return "overline"
	}
	return "none"
}

// FoulError is the error Board.Play returns for a forbidden point; it
// wraps ErrForbidden.
type FoulError struct {
	Point Point
	Foul  Foul
}

// Error returns the text of the refusal, naming the point and the foul.
func (e *FoulError) Error() string {
	return fmt.Sprintf("engine: play %v: %v: %v", e.Point, ErrForbidden, e.Foul)
}

// Unwrap returns ErrForbidden.
func (e *FoulError) Unwrap() error { return ErrForbidden }

// renjuPad is the number of wall cells around a renju grid: enough for
// every walk of foul, which stops at the first wall.
const renjuPad = 5

// Foul returns the foul a black stone at p would be under renju, or NoFoul
// when p is allowed, off the board, taken, or the rules are not renju. A
// move that makes five is never a foul, whatever else it makes.
func (b *Board) Foul(p Point) Foul {
	if !b.rules.Renju || !b.rules.Contains(p) || b.At(p) != Empty {
		return NoFoul
	}
	g := b.grid()
	return g.foul(g.index(p))
}

// Fouls returns the empty points that would be fouls for Black, with
// their fouls, whoever is to move; nil unless the rules are renju.
func (b *Board) Fouls() map[Point]Foul {
	if !b.rules.Renju {
		return nil
	}
	g := b.grid()
	fs := map[Point]Foul{}
	for y := 0; y < b.rules.Height; y++ {
		for x := 0; x < b.rules.Width; x++ {
			p := Point{x, y}
			if b.At(p) != Empty {
				continue
			}
			if f := g.foul(g.index(p)); f != NoFoul {
				fs[p] = f
			}
		}
	}
	return fs
}

// grid is a board as the foul checks read it: cells (cEmpty, cBlack,
// cWhite or cWall) in a flat array with at least renjuPad walls around the
// board, and the steps of the four line directions.
type grid struct {
	cells  []uint8
	dir    [4]int
	stride int
}

// grid returns the renju grid of b.
func (b *Board) grid() grid {
	w, h := b.rules.Width, b.rules.Height
	g := grid{stride: w + 2*renjuPad}
	g.cells = make([]uint8, g.stride*(h+2*renjuPad))
	for i := range g.cells {
		g.cells[i] = cWall
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g.cells[g.index(Point{x, y})] = uint8(b.cells[y*w+x])
		}
	}
	g.dir = [4]int{1, g.stride, g.stride + 1, g.stride - 1}
	return g
}

// index returns the cell index of board point p.
func (g grid) index(p Point) int { return (p.Y+renjuPad)*g.stride + p.X + renjuPad }

// foul returns the foul of a black stone at the empty cell i. It places
// stones on g.cells while it looks and leaves them as they were.
func (g grid) foul(i int) Foul {
	c := g.cells
	c[i] = cBlack
	defer func() { c[i] = cEmpty }()
	over := false
	for _, st := range g.dir {
		switch n := 1 + g.run(i, st) + g.run(i, -st); {
		case n == 5:
			return NoFoul
		case n > 5:
			over = true
		}
	}
	if over {
		return Overline
	}
	fours, threes := 0, 0
	for _, st := range g.dir {
		if n := g.fours(i, st); n > 0 {
			fours += n
			continue
		}
		if g.three(i, st) {
			threes++
		}
	}
	switch {
	case fours >= 2:
		return DoubleFour
	case threes >= 2:
		return DoubleThree
	}
	return NoFoul
}

// run counts the black stones next to i in step st, i excluded.
func (g grid) run(i, st int) int {
	n := 0
	for j := i + st; g.cells[j] == cBlack; j += st {
		n++
	}
	return n
}

// fives returns the offsets (along st, from i) of the empty cells within
// four of the black stone at i where one more black stone makes exactly
// five through i, in increasing order, and how many there are (at most
// two can exist).
func (g grid) fives(i, st int) (offs [4]int, n int) {
	for _, sg := range [2]int{-1, 1} {
		for k := 1; k <= 4; k++ {
			j := i + sg*k*st
			c := g.cells[j]
			if c == cWall || c == cWhite {
				break
			}
			if c != cEmpty {
				continue
			}
			g.cells[j] = cBlack
			if 1+g.run(i, st)+g.run(i, -st) == 5 && n < len(offs) {
				offs[n] = sg * k
				n++
			}
			g.cells[j] = cEmpty
		}
	}
	return offs, n
}

// fours counts the fours the black stone at i makes along st: a straight
// four (two ways to five, five apart) is one, two ways to five otherwise
// (X·XX*·X, XX·X*·XX) are two.
func (g grid) fours(i, st int) int {
	offs, n := g.fives(i, st)
	if n == 2 && (offs[0]-offs[1] == 5 || offs[1]-offs[0] == 5) {
		return 1
	}
	return n
}

// three reports whether the black stone at i makes a three along st: an
// empty cell within three of it where a black stone would make a straight
// four through i and would itself not be a foul.
func (g grid) three(i, st int) bool {
	for _, sg := range [2]int{-1, 1} {
		for k := 1; k <= 3; k++ {
			j := i + sg*k*st
			c := g.cells[j]
			if c == cWall || c == cWhite {
				break
			}
			if c != cEmpty {
				continue
			}
			g.cells[j] = cBlack
			straight := g.straightFour(i, st)
			g.cells[j] = cEmpty
			if straight && g.foul(j) == NoFoul {
				return true
			}
		}
	}
	return false
}

// straightFour reports whether the black run through i along st is four
// long with an empty cell at each end where black makes exactly five.
func (g grid) straightFour(i, st int) bool {
	lo, hi := i-g.run(i, -st)*st, i+g.run(i, st)*st
	if (hi-lo)/st != 3 {
		return false
	}
	a, b := lo-st, hi+st
	return g.cells[a] == cEmpty && g.cells[b] == cEmpty && g.cells[a-st] != cBlack && g.cells[b+st] != cBlack
}
