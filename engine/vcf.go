package engine

// Threat-space search: VCF (victory by continuous fours) and, at the root,
// VCT (victory by continuous threats: fours and open threes). Both ask
// whether the side to move can force a win with moves the opponent must
// answer, and record the first attacking move of a win in s.threatMove.

// vcfMemoSize is the number of slots of the table of positions where a VCF
// was already searched and failed.
const vcfMemoSize = 1 << 16

// Which fours a VCF tries.
const (
	allFours  = false // every four
	nearFours = true  // after the first, only fours that build on the VCF's own: see vcf
)

// nearSalt marks the memo entries of VCFs that tried only nearFours: their
// failures say nothing of a VCF that tries every four.
const nearSalt = 0x9e3779b97f4a7c15

// vcf reports whether the side to move wins by continuous fours within
// depth attacking moves. With near (nearFours) it tries, after its first
// four, only fours on a line through one of its earlier attacking stones
// within K-1 cells, where the new four can use that stone: a four
// elsewhere leaves the VCF's own lines as they were. On 11 674 leaves of
// hard's freestyle search with a four to make, it found each of the 1 049
// wins the full VCF found with 27 % of its nodes; under renju 1 031 of
// 1 048 with 31 % (see docs/engine.md, "More search, and more leaf
// features").
func (s *searcher) vcf(depth, ply int, near bool) bool {
	if s.tick() || ply >= maxPly-2 {
		return false
	}
	p := s.p
	me := p.side
	key := p.hash
	if near {
		key ^= nearSalt
	}
	slot := &s.vcfMemo[key&(vcfMemoSize-1)]
	if slot.key == key && int(slot.depth) >= depth {
		return false
	}
	fours, th := p.scanFours(s.vcfBuf(ply))
	answer := false // fours holds only the answer to the opponent's four
	switch {
	case th.myFive >= 0:
		s.threatMove[ply] = th.myFive
		return true
	case th.oppFives >= 2 || th.oppFiveFoul:
		return false
	case th.oppFive >= 0:
		// The last block made a four: answer it, and only go on if the
		// answer is itself a four.
		if l, _ := p.level(int(th.oppFive), me); l < tFour {
			return false
		}
		fours = append(fours[:0], move{th.oppFive, 0})
		answer = true
	case th.myFlex >= 0:
		s.threatMove[ply] = th.myFlex
		return true
	}
	if depth <= 0 || th.myFours == 0 && th.oppFive < 0 {
		return false
	}
	sortMoves(fours)
	for _, m := range fours {
		if near && !answer && len(s.vcfPath) > 0 && !p.lineNear(int(m.cell), s.vcfPath) {
			continue
		}
		s.vcfPath = append(s.vcfPath, m.cell)
		s.play(int(m.cell))
		c := p.completion(int(m.cell), me)
		win := false
		switch {
		case c >= 0 && me == cWhite && p.forbidden(c):
			// Under renju Black may not block there: the four wins.
			win = true
		case c >= 0:
			s.play(c)
			win = s.vcf(depth-1, ply+2, near)
			p.undo()
		}
		p.undo()
		s.vcfPath = s.vcfPath[:len(s.vcfPath)-1]
		if win {
			s.threatMove[ply] = m.cell
			return true
		}
		if s.stopped {
			return false
		}
	}
	*slot = vcfSlot{key, int8(min(depth, 127))}
	return false
}

// lineNear reports whether cell i lies on a line through one of cells,
// within K-1 cells of it: whether a K-window through i can hold it.
func (p *pos) lineNear(i int, cells []int32) bool {
	x, y := i%p.stride, i/p.stride
	for _, c := range cells {
		dx, dy := int(c)%p.stride-x, int(c)/p.stride-y
		dx, dy = max(dx, -dx), max(dy, -dy)
		if (dx == 0 || dy == 0 || dx == dy) && max(dx, dy) < p.k {
			return true
		}
	}
	return false
}

// vcfSlot remembers that no VCF of depth or fewer moves exists at key.
type vcfSlot struct {
	key   uint64
	depth int8
}

// completion returns the empty cell on a line through i where side s now
// makes a winning line, or -1.
func (p *pos) completion(i int, s uint8) int {
	for d, step := range p.dir {
		for off := -p.k; off <= p.k; off++ {
			j := i + off*step
			if off != 0 && p.cells[j] == cEmpty && p.pat[s-1][j][d] == patFive {
				return j
			}
		}
	}
	return -1
}

// vctWidth is the most threats VCT tries at one attacking node.
const vctWidth = 10

// vct reports whether the side to move wins by continuous threats within
// depth attacking moves, each a four or an open three.
func (s *searcher) vct(depth, ply int) bool {
	if s.tick() || ply >= maxPly-4 {
		return false
	}
	p := s.p
	me := p.side
	ms, th := p.scan(s.buf(ply))
	switch {
	case th.myFive >= 0:
		s.threatMove[ply] = th.myFive
		return true
	case th.oppFives >= 2:
		return false
	case th.oppFiveFoul:
		return false
	case th.myFlex >= 0 && th.oppFive < 0:
		s.threatMove[ply] = th.myFlex
		return true
	}
	if s.vcf(vcfInner, ply, allFours) {
		return true
	}
	if depth <= 0 {
		return false
	}
	threats := ms[:0]
	for _, m := range ms {
		if th.oppFive >= 0 && m.cell != th.oppFive {
			continue
		}
		if l, _ := p.level(int(m.cell), me); l >= tThree {
			threats = append(threats, m)
		}
	}
	sortMoves(threats)
	if len(threats) > vctWidth {
		threats = threats[:vctWidth]
	}
	// The buffer of this ply is reused below, so copy the threats out.
	list := append([]move(nil), threats...)
	for _, m := range list {
		s.play(int(m.cell))
		win := s.vctDefend(depth, ply+1)
		p.undo()
		if win {
			s.threatMove[ply] = m.cell
			return true
		}
		if s.stopped {
			return false
		}
	}
	return false
}

// vctDefend reports whether the attacker, who just made a threat, wins
// whatever the side to move answers.
func (s *searcher) vctDefend(depth, ply int) bool {
	if s.tick() {
		return false
	}
	p := s.p
	ms, th := p.scan(s.buf(ply))
	switch {
	case th.myFive >= 0 || th.myFlex >= 0 && th.oppFive < 0:
		return false
	case th.oppFives >= 2 || th.oppFiveFoul:
		return true
	case th.oppFive >= 0:
		ms = append(ms[:0], move{th.oppFive, 0})
	default:
		// A three gives the defender time for a VCF of its own.
		if s.vcf(vcfInner, ply, allFours) {
			return false
		}
		ms, _ = p.scan(s.buf(ply))
		ms = p.defences(ms)
	}
	list := append([]move(nil), ms...)
	for _, m := range list {
		s.play(int(m.cell))
		win := s.vct(depth-1, ply+1)
		p.undo()
		if !win {
			return false
		}
	}
	return !s.stopped
}
