package engine

// pos is the search's fast position: a flat array of cells with a border
// of K wall cells, and for every cell, side and line direction the base-3
// key of the 2K cells around it and the pattern it gives. Placing or
// removing a stone updates the keys and patterns of the cells within K of
// it on its four lines, the running pattern scores of both sides, the
// counts of empty cells by threat level, the Zobrist hash and the count of
// stones near each cell. Taking a stone back restores the patterns it
// changed from a log instead of looking them up again. A pos is owned by
// one search.
type pos struct {
	w, h, k    int
	exact      bool
	renju      bool // renju rules: Black's patterns are exact-five ones, and Black has fouls
	stride     int
	cells      []uint8 // cEmpty, cBlack, cWhite or cWall
	dir        [4]int
	key        [2][4][]uint64 // [side-1][dir][cell]
	pat        [2][][4]uint8  // [side-1][cell][dir]
	near       []uint8        // stones within two cells (square)
	table      *patTable
	dense      [2][]uint8       // [side-1]: the dense pattern table of each side, or nil
	memo       map[uint64]uint8 // patterns for K > denseMaxK
	score      [2]int32         // sum of leaf.cells over empty cells, per side
	leaf       leafTables       // the tables the leaf value reads under these rules
	zob        [2][]uint64
	hash       uint64
	side       uint8 // side to move: cBlack or cWhite
	stack      []int32
	boxes      [][4]int       // box before each stone of stack
	sums       []posSums      // scores and level counts before each stone of stack
	changes    []patChange    // the patterns the stones of stack changed, in order
	marks      []int32        // len(changes) before each stone of stack
	box        [4]int         // array columns and rows x0, y0, x1, y1 within two of a stone
	combo      [2][]uint16    // [side-1][cell]: the four patterns in base numPats
	levels     [2]levelCounts // [side-1]: the empty cells of each threat level
	builds     [2]buildCounts // [side-1]: the empty cells of each build-up, when keepBuilds
	keepBuilds bool           // builds is kept: leaf.builds is not nil (the update loop reads it)
	pw         []uint64       // [off+K]: place value of the cell at offset off
	onBoard    []int32        // the board's cells, row by row
	nearDeltas []int
}

// posSums is what pos keeps in sums over all cells, saved before each
// stone.
type posSums struct {
	score  [2]int32
	levels [2]levelCounts
	builds [2]buildCounts
}

// patChange is one line pattern a stone changed: of cell j, line
// direction d and side s (0 or 1), which was old before.
type patChange struct {
	j    int32
	d, s uint8
	old  uint8
}

// Cell contents of pos.cells.
const (
	cEmpty uint8 = 0
	cBlack uint8 = 1
	cWhite uint8 = 2
	cWall  uint8 = 3
)

// patWeight is what one line pattern of an empty cell is worth to the side
// that could play there, in ordering moves (combos) and in medium's
// choice.
var patWeight = [numPats]int32{0, 1, 4, 12, 16, 60, 70, 400, 1500}

// leafWeight is what one line pattern of an empty cell adds to the line
// potential (pos.score) the leaf value weighs. It is patWeight with a
// four worth 100 instead of 70 (see docs/engine.md, "Against Rapfi").
var leafWeight = [numPats]int32{0, 1, 4, 12, 16, 60, 100, 400, 1500}

// newPos builds the fast position of b.
func newPos(b *Board) *pos {
	r := b.Rules()
	k := r.K
	p := &pos{w: r.Width, h: r.Height, k: k, exact: r.Exact, renju: r.Renju, stride: r.Width + 2*k}
	n := p.stride * (r.Height + 2*k)
	p.dir = [4]int{1, p.stride, p.stride + 1, p.stride - 1}
	p.cells = make([]uint8, n)
	for i := range p.cells {
		p.cells[i] = cWall
	}
	p.near = make([]uint8, n)
	p.table = patternsFor(k, r.Exact)
	if p.table.dense == nil {
		p.memo = make(map[uint64]uint8)
	}
	p.dense = [2][]uint8{p.table.dense, p.table.dense}
	if r.Renju {
		// Under renju only exactly five wins for Black (K is 5, so the
		// table is dense).
		p.dense[0] = patternsFor(k, true).dense
	}
	seed := uint64(r.Width)<<32 | uint64(r.Height)<<16 | uint64(k)<<1
	if r.Exact {
		seed |= 1
	}
	if r.Renju {
		seed |= 1 << 60
	}
	p.hash = splitmix(&seed)
	for s := range p.zob {
		p.zob[s] = make([]uint64, n)
		for i := range p.zob[s] {
			p.zob[s][i] = splitmix(&seed)
		}
	}
	for y := 0; y < r.Height; y++ {
		for x := 0; x < r.Width; x++ {
			i := p.index(x, y)
			p.cells[i] = cEmpty
			p.onBoard = append(p.onBoard, int32(i))
		}
	}
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if dx != 0 || dy != 0 {
				p.nearDeltas = append(p.nearDeltas, dy*p.stride+dx)
			}
		}
	}
	for s := range p.key {
		p.pat[s] = make([][4]uint8, n)
		for d := range p.key[s] {
			p.key[s][d] = make([]uint64, n)
		}
	}
	// Keys of every cell with no stones: only walls are non-empty.
	for _, i := range p.onBoard {
		for d, step := range p.dir {
			var key uint64
			for off := -k; off <= k; off++ {
				if off != 0 && p.cells[int(i)+off*step] == cWall {
					key += wBlocked * p.table.pow3[p.table.digit(off)]
				}
			}
			p.key[0][d][i], p.key[1][d][i] = key, key
		}
	}
	p.leaf = leafTablesOf(p)
	p.keepBuilds = p.leaf.builds[0] != nil
	for s := range 2 {
		p.combo[s] = make([]uint16, n)
		for _, i := range p.onBoard {
			for d := range 4 {
				pt := p.lookup(uint8(s+1), p.key[s][d][i])
				p.pat[s][i][d] = pt
				p.combo[s][i] += uint16(pt) * comboWeight[d]
			}
			p.score[s] += p.leaf.cells[s][p.combo[s][i]]
			p.levels[s][comboLevels[p.combo[s][i]]]++
			if p.keepBuilds {
				p.builds[s][comboBuilds[p.combo[s][i]]]++
			}
		}
	}
	p.pw = make([]uint64, 2*k+1)
	for off := -k; off <= k; off++ {
		if off != 0 {
			p.pw[off+k] = p.table.pow3[p.table.digit(off)]
		}
	}
	p.box = [4]int{p.stride, p.stride, -1, -1}
	p.side = cBlack
	for _, m := range b.moves {
		p.play(p.index(m.X, m.Y))
	}
	return p
}

// splitmix returns the next value of the SplitMix64 sequence at *s.
func splitmix(s *uint64) uint64 {
	*s += 0x9e3779b97f4a7c15
	z := *s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// index returns the cell index of board point (x, y).
func (p *pos) index(x, y int) int { return (y+p.k)*p.stride + x + p.k }

// point returns the board point of cell index i.
func (p *pos) point(i int) Point { return Point{i%p.stride - p.k, i/p.stride - p.k} }

// lookup returns the pattern of a window key for side s.
func (p *pos) lookup(s uint8, key uint64) uint8 {
	if d := p.dense[s-1]; d != nil {
		return d[key]
	}
	if v, ok := p.memo[key]; ok {
		return v
	}
	line := make([]uint8, 2*p.k+1)
	p.table.decode(key, line)
	v := classify(line, p.k, p.exact)
	p.memo[key] = v
	return v
}

// play puts a stone of the side to move on the empty cell i.
func (p *pos) play(i int) {
	s := p.side
	p.cells[i] = s
	p.hash ^= p.zob[s-1][i]
	p.stack = append(p.stack, int32(i))
	p.boxes = append(p.boxes, p.box)
	p.sums = append(p.sums, posSums{p.score, p.levels, p.builds})
	p.marks = append(p.marks, int32(len(p.changes)))
	x, y := i%p.stride, i/p.stride
	p.box = [4]int{min(p.box[0], x-2), min(p.box[1], y-2), max(p.box[2], x+2), max(p.box[3], y+2)}
	for si := range 2 {
		p.score[si] -= p.leaf.cells[si][p.combo[si][i]]
		p.levels[si][comboLevels[p.combo[si][i]]]--
		if p.keepBuilds {
			p.builds[si][comboBuilds[p.combo[si][i]]]--
		}
	}
	p.update(i, s)
	for _, dl := range p.nearDeltas {
		p.near[i+dl]++
	}
	p.side = 3 - s
}

// undo takes back the last stone.
func (p *pos) undo() {
	n := len(p.stack) - 1
	i := int(p.stack[n])
	p.stack = p.stack[:n]
	p.box = p.boxes[n]
	p.boxes = p.boxes[:n]
	c := p.sums[n]
	p.score, p.levels, p.builds = c.score, c.levels, c.builds
	p.sums = p.sums[:n]
	s := p.cells[i]
	p.cells[i] = cEmpty
	p.hash ^= p.zob[s-1][i]
	p.unkey(i, s)
	mark := int(p.marks[n])
	p.marks = p.marks[:n]
	for _, ch := range p.changes[mark:] {
		pt := &p.pat[ch.s][ch.j][ch.d]
		p.combo[ch.s][ch.j] -= (uint16(*pt) - uint16(ch.old)) * comboWeight[ch.d]
		*pt = ch.old
	}
	p.changes = p.changes[:mark]
	for _, dl := range p.nearDeltas {
		p.near[i+dl]--
	}
	p.side = s
}

// unkey takes the stone of side s at i out of the keys of the cells within
// K on its lines.
func (p *pos) unkey(i int, s uint8) {
	own, other := int(s-1), int(2-s)
	for d := range 4 {
		step := p.dir[d]
		kOwn, kOther := p.key[own][d], p.key[other][d]
		for _, sg := range [2]int{1, -1} {
			for off := 1; off <= p.k; off++ {
				j := i - sg*off*step
				if p.cells[j] == cWall {
					break
				}
				pw := p.pw[sg*off+p.k]
				kOwn[j] -= pw
				kOther[j] -= 2 * pw
			}
		}
	}
}

// update adds the stone of side s at i to the keys of the cells within K
// on its lines, and refreshes their patterns, combo indexes, the pattern
// scores and the counts of cells by threat level and (when kept) by
// build-up, logging each pattern it changes. It walks out from i in each direction and
// stops at the first wall, past which there is nothing on the board.
func (p *pos) update(i int, s uint8) {
	own, other := int(s-1), int(2-s)
	dOwn, dOther := p.dense[own], p.dense[other]
	pOwn, pOther := p.pat[own], p.pat[other]
	cOwn, cOther := p.combo[own], p.combo[other]
	var sOwn, sOther int32 // changes of the pattern scores
	csOwn, csOther := p.leaf.cells[own], p.leaf.cells[other]
	for d := range 4 {
		step := p.dir[d]
		kOwn, kOther := p.key[own][d], p.key[other][d]
		cw := comboWeight[d]
		for _, sg := range [2]int{1, -1} {
			for off := 1; off <= p.k; off++ {
				j := i - sg*off*step // i is at offset sg*off from j
				c := p.cells[j]
				if c == cWall {
					break
				}
				pw := p.pw[sg*off+p.k]
				kOwn[j] += pw
				kOther[j] += 2 * pw
				if c != cEmpty {
					continue
				}
				var a, b uint8
				if dOwn != nil {
					a, b = dOwn[kOwn[j]], dOther[kOther[j]]
				} else {
					a, b = p.lookup(s, kOwn[j]), p.lookup(3-s, kOther[j])
				}
				if old := pOwn[j][d]; old != a {
					p.changes = append(p.changes, patChange{int32(j), uint8(d), uint8(own), old})
					pOwn[j][d] = a
					nc := cOwn[j] + (uint16(a)-uint16(old))*cw
					sOwn += csOwn[nc] - csOwn[cOwn[j]]
					if max(a, old) >= patThreeO {
						p.levels[own][comboLevels[cOwn[j]]]--
						p.levels[own][comboLevels[nc]]++
					}
					if p.keepBuilds && max(a, old) >= patTwoO {
						p.builds[own][comboBuilds[cOwn[j]]]--
						p.builds[own][comboBuilds[nc]]++
					}
					cOwn[j] = nc
				}
				if old := pOther[j][d]; old != b {
					p.changes = append(p.changes, patChange{int32(j), uint8(d), uint8(other), old})
					pOther[j][d] = b
					nc := cOther[j] + (uint16(b)-uint16(old))*cw
					sOther += csOther[nc] - csOther[cOther[j]]
					if max(b, old) >= patThreeO {
						p.levels[other][comboLevels[cOther[j]]]--
						p.levels[other][comboLevels[nc]]++
					}
					if p.keepBuilds && max(b, old) >= patTwoO {
						p.builds[other][comboBuilds[cOther[j]]]--
						p.builds[other][comboBuilds[nc]]++
					}
					cOther[j] = nc
				}
			}
		}
	}
	p.score[own] += sOwn
	p.score[other] += sOther
}

// comboWeight is the place value of each direction's pattern in a combo
// index.
var comboWeight = [4]uint16{729, 81, 9, 1}

// level returns the combined threat level and ordering value of cell i for
// side s (cBlack or cWhite).
func (p *pos) level(i int, s uint8) (uint8, int32) {
	c := combos[p.combo[s-1][i]]
	return c.level, c.value
}

// forbidden reports whether a black stone at the empty cell i is a foul
// under renju. It asks the full foul check only for cells whose patterns
// or neighbours could make one: two threes (tDouble3), a four and a three
// (tFour3), two fours (tFlex; a straight four is one too), or a run of five
// black stones beside. A real three is always an open-three pattern and a
// four a four pattern, so no foul is missed.
func (p *pos) forbidden(i int) bool {
	if !p.renju {
		return false
	}
	switch l, _ := p.level(i, cBlack); l {
	case tDouble3, tFour3, tFlex:
	case tFive:
		return false
	default:
		if !p.long(i) {
			return false
		}
	}
	return grid{cells: p.cells, dir: p.dir, stride: p.stride}.foul(i) != NoFoul
}

// long reports whether a black stone at i would touch five or more black
// stones on one line, counted on both sides.
func (p *pos) long(i int) bool {
	for _, st := range p.dir {
		n := 0
		for j := i + st; p.cells[j] == cBlack; j += st {
			n++
		}
		for j := i - st; p.cells[j] == cBlack; j -= st {
			n++
		}
		if n >= 5 {
			return true
		}
	}
	return false
}
