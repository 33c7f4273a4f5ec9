package engine

// Threat-space search: VCF (victory by continuous fours) and, at the root,
// VCT (victory by continuous threats: fours and open threes). Both ask
// whether the side to move can force a win with moves the opponent must
// answer, and record the first attacking move of a win in s.threatMove.

// vcfMemoSize is the number of slots of the table of positions where a VCF
// was already searched and failed.
const vcfMemoSize = 1 << 16

// vcf reports whether the side to move wins by continuous fours within
// depth attacking moves.
func (s *searcher) vcf(depth, ply int) bool {
	if s.tick() || ply >= maxPly-2 {
		return false
	}
	p := s.p
	me := p.side
	slot := &s.vcfMemo[p.hash&(vcfMemoSize-1)]
	if slot.key == p.hash && int(slot.depth) >= depth {
		return false
	}
	fours, th := p.scanFours(s.vcfBuf(ply))
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
	case th.myFlex >= 0:
		s.threatMove[ply] = th.myFlex
		return true
	}
	if depth <= 0 || th.myFours == 0 && th.oppFive < 0 {
		return false
	}
	sortMoves(fours)
	for _, m := range fours {
		s.play(int(m.cell))
		c := p.completion(int(m.cell), me)
		win := false
		switch {
		case c >= 0 && me == cWhite && p.forbidden(c):
			// Under renju Black may not block there: the four wins.
			win = true
		case c >= 0:
			s.play(c)
			win = s.vcf(depth-1, ply+2)
			p.undo()
		}
		p.undo()
		if win {
			s.threatMove[ply] = m.cell
			return true
		}
		if s.stopped {
			return false
		}
	}
	*slot = vcfSlot{p.hash, int8(min(depth, 127))}
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
	if s.vcf(vcfInner, ply) {
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
		if s.vcf(vcfInner, ply) {
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
