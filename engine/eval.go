package engine

import "slices"

// Threat levels of a cell for one side: what a stone there makes over its
// four lines together, strongest last.
const (
	tNone    uint8 = iota
	tThree         // an open three: the opponent must answer
	tDouble3       // two open threes
	tFour          // a four: the opponent must block
	tFour3         // a four and an open three
	tFlex          // an open four or two fours: wins next move
	tFive          // a winning line now
)

// combo is the threat level and move-ordering value of four line patterns.
type combo struct {
	level uint8
	value int32
}

// comboPatterns counts the patterns of each kind in the combo index i.
func comboPatterns(i int) (n [numPats]int32) {
	for x, d := i, 0; d < 4; d, x = d+1, x/numPats {
		n[x%numPats]++
	}
	return n
}

// weigh returns the sum of the weights w of the patterns counted in n.
func weigh(n [numPats]int32, w *[numPats]int32) (v int32) {
	for pt, c := range n {
		v += c * w[pt]
	}
	return v
}

// combos is indexed by the four patterns of a cell in base numPats.
var combos = func() []combo {
	cs := make([]combo, numPats*numPats*numPats*numPats)
	for i := range cs {
		n := comboPatterns(i)
		v := weigh(n, &patWeight)
		var l uint8
		switch {
		case n[patFive] > 0:
			l = tFive
		case n[patFourO] > 0 || n[patFour] >= 2:
			l = tFlex
		case n[patFour] == 1 && n[patThreeO] > 0:
			l = tFour3
		case n[patFour] == 1:
			l = tFour
		case n[patThreeO] >= 2:
			l = tDouble3
		case n[patThreeO] == 1:
			l = tThree
		}
		cs[i] = combo{l, v + levelBonus[l]}
	}
	return cs
}()

// comboLeaf is what an empty cell adds to its side's line potential
// (pos.score), by combo index: the leafWeight of its four patterns.
var comboLeaf = func() []int32 {
	cs := make([]int32, len(combos))
	for i := range cs {
		cs[i] = weigh(comboPatterns(i), &leafWeight)
	}
	return cs
}()

// comboLeafRenjuBlack is comboLeaf for Black under renju: a cell whose
// patterns make a double three or a four-four without a five, nearly
// always a foul Black may not play, adds nothing.
var comboLeafRenjuBlack = func() []int32 {
	cs := make([]int32, len(combos))
	for i := range cs {
		n := comboPatterns(i)
		if n[patFive] > 0 || n[patFour]+n[patFourO] < 2 && n[patThreeO] < 2 {
			cs[i] = comboLeaf[i]
		}
	}
	return cs
}()

// numCellClasses is the number of cell classes: the multisets of four
// line patterns, numPats+3 choose 4.
const numCellClasses = (numPats + 3) * (numPats + 2) * (numPats + 1) * numPats / 24

// cellClass is the class of each combo index: its four patterns in
// ascending order, numbered in lexicographic order. What a cell adds to
// the line potential depends only on its class, not on which line has
// which pattern.
var cellClass = func() []uint16 {
	var class [numPats][numPats][numPats][numPats]uint16
	n := uint16(0)
	for a := range numPats {
		for b := a; b < numPats; b++ {
			for c := b; c < numPats; c++ {
				for d := c; d < numPats; d++ {
					class[a][b][c][d] = n
					n++
				}
			}
		}
	}
	cs := make([]uint16, numPats*numPats*numPats*numPats)
	for i := range cs {
		var ps [4]int
		for d, x := 0, i; d < 4; d, x = d+1, x/numPats {
			ps[d] = x % numPats
		}
		slices.Sort(ps[:])
		cs[i] = class[ps[0]][ps[1]][ps[2]][ps[3]]
	}
	return cs
}()

// comboCells returns a table by combo index of the values by class vs.
func comboCells(vs []int32) []int32 {
	cs := make([]int32, len(cellClass))
	for i, c := range cellClass {
		cs[i] = vs[c]
	}
	return cs
}

// The learned cell values of the leaf (see leafTablesOf) by combo index.
var (
	comboCellsFreestyle  = comboCells(cellValuesFreestyle[:])
	comboCellsRenjuBlack = comboCells(cellValuesRenju[:numCellClasses])
	comboCellsRenjuWhite = comboCells(cellValuesRenju[numCellClasses:])
)

// numLevels is the number of threat levels.
const numLevels = int(tFive) + 1

// comboLevels is the threat level of each combo index, apart from combos
// for the counts pos.levels keeps. A cell's level depends only on its
// patterns of open three or better, so it changes only when one of those
// does.
var comboLevels = func() []uint8 {
	ls := make([]uint8, len(combos))
	for i, c := range combos {
		ls[i] = c.level
	}
	return ls
}()

// levelCounts counts the empty cells of one side by threat level: where a
// stone of the side would make each level (under renju Black's fouls
// included).
type levelCounts [numLevels]int32

// fours returns the cells where the side makes a four that is not
// unstoppable (tFour, tFour3).
func (c *levelCounts) fours() int32 { return c[tFour] + c[tFour3] }

// Build-ups of a cell for one side: a stone there makes a shape on one
// line and a lesser one on another, short of the threat levels above. They
// are the moves that prepare double threats, which Rapfi's classical
// evaluation tells apart and the line patterns alone do not.
const (
	bNone          = iota
	bTwos          // two open twos
	bThreePlus     // a three, and a three or an open two
	bOpenThreePlus // an open three, and a three or an open two
	bFourPlus      // a four, and a three or an open two
	numBuilds
)

// buildCounts counts the empty cells of one side by build-up (see bNone).
type buildCounts [numBuilds]int32

// comboBuilds is the build-up of each combo index. It depends only on
// the cell's patterns of open two or better.
var comboBuilds = func() []uint8 {
	bs := make([]uint8, len(combos))
	for i, c := range combos {
		n := comboPatterns(i)
		more := n[patThree]+n[patTwoO] >= 1
		switch {
		case c.level == tFour && more:
			bs[i] = bFourPlus
		case c.level == tThree && more:
			bs[i] = bOpenThreePlus
		case c.level == tNone && n[patThree] >= 1 && n[patThree]+n[patTwoO] >= 2:
			bs[i] = bThreePlus
		case c.level == tNone && n[patTwoO] >= 2:
			bs[i] = bTwos
		}
	}
	return bs
}()

// levelBonus adds to a cell's ordering value for its threat level.
var levelBonus = [...]int32{tNone: 0, tThree: 200, tDouble3: 2000, tFour: 300, tFour3: 5000, tFlex: 20000, tFive: 100000}

// Search scores: a win found n plies from the root scores winScore-n.
const (
	winScore = 1 << 20
	winBound = winScore - 1000
	infinity = winScore + 1
)

// evalOppThree is the leaf penalty for an opponent's open three, which the
// side to move must answer.
const evalOppThree = 250

// evalOwn is the weight, in tenths, of the side to move's own line
// potential in the leaf value on open boards (the opponent's weighs 25).
// In fixed-node self-play on 15×15 (20k nodes a move, random 3-stone
// openings, both colours) weights 20 and 30 beat the evaluation without
// it by 61.4% (167 games) and 71.8% (71 games, SPRT 0/30 accepted).
const evalOwn = 30

// Threat situations: the bits of a threat mask (pos.threatMask), each
// set when the side named has at least one empty cell of the kind. "Own"
// is the side to move.
const (
	maskOppFlex    = 1 << iota // the opponent makes an unstoppable four: it has an open three
	maskOwnFour3               // the side to move makes a four and an open three
	maskOwnFour                // a four
	maskOwnDouble3             // two open threes
	maskOwnThree               // an open three
	maskOppFour3               // the opponent makes a four and an open three
	maskOppFour                // a four
	maskOppDouble3             // two open threes
	maskOppThree               // an open three
	numMasks       = 1 << 9
)

// threatMask returns the threat situation of the side to move: which
// threats each side could make with one stone (see maskOppFlex). The leaf
// value adds a learned value for it, after Rapfi's classical evaluation:
// the pattern weights alone add up the two sides' threats as if each were
// alone on the board, while who has which, and who moves, is what decides.
func (p *pos) threatMask() int {
	me, op := &p.levels[p.side-1], &p.levels[2-p.side]
	m := 0
	// In the order of the bits, from maskOppFlex.
	for i, has := range [...]bool{
		op[tFlex] > 0,
		me[tFour3] > 0, me[tFour] > 0, me[tDouble3] > 0, me[tThree] > 0,
		op[tFour3] > 0, op[tFour] > 0, op[tDouble3] > 0, op[tThree] > 0,
	} {
		if has {
			m |= 1 << i
		}
	}
	return m
}

// numBuildMasks is the number of build-up masks (pos.buildMask).
const numBuildMasks = 1 << (2 * (numBuilds - 1))

// buildMask returns which build-ups each side could make with one stone:
// bit b-1 for the side to move's build-up b, bit numBuilds-2+b for the
// opponent's. The leaf value adds a learned value for it beside the
// threat mask's (see docs/engine.md, "Build-ups").
func (p *pos) buildMask() int {
	me, op := &p.builds[p.side-1], &p.builds[2-p.side]
	m := 0
	for b := 1; b < numBuilds; b++ {
		if me[b] > 0 {
			m |= 1 << (b - 1)
		}
		if op[b] > 0 {
			m |= 1 << (numBuilds - 2 + b)
		}
	}
	return m
}

// evaluate returns the static value of the position for the side to move,
// given what the scan saw. It is the opponent's line potential, negated,
// less a penalty when the opponent has an open three. The side to move's
// own potential is left out here: on small boards weighing it made hard
// drift into drawn positions more often (on 7×7 five in a row, 92% against
// medium when weighed 6:5, 98% when left out, over 60 games each, at a
// 20k-node budget), so there the search adds back the potential of the side to
// move at the root only (see searcher.own). On open boards the search adds
// the side to move's own potential, weighed evalOwn.
func (p *pos) evaluate(th threats) int32 {
	v := -p.score[2-p.side] * 5 / 2
	if th.oppFlex {
		v -= evalOppThree
	}
	return v
}

// openValue returns the static value of the position for the side to move
// on an open board, before the threat values: evaluate's, plus the side
// to move's own line potential weighed evalOwn.
func (p *pos) openValue(th threats) int32 {
	return p.evaluate(th) + p.score[p.side-1]*evalOwn/10
}
