package engine

// Narrow threat search: a VCT whose attacker only makes threats that come
// with more than one line's worth of pressure, so that it can look much
// deeper than vct for the same cost. An attacking move is a four with an
// open three (anywhere), two open threes (anywhere), or, on a line through
// the previous attacking stone, a four or an open three that also makes a
// lesser shape on another line. The defender answers an open three with
// every block and every four of its own, a four with its block. It is
// sound where it finds a win and misses wins that need plain fours or
// threes; depths count plies. Renju positions are not searched with it.
// The idea, and how the root uses it, follow AIWine
// (github.com/jinjiebang/AIWine), the engine hard was measured against.

// Attack kinds, in the order they are tried.
const (
	atkFour3    = iota // a four and an open three
	atkFourAnd         // a four and a lesser shape on another line
	atkDouble3         // two open threes
	atkThreeAnd        // an open three and a lesser shape on another line
	atkNone
)

// attackKind classifies what side s makes with a stone on the empty cell
// i, as one of the atk kinds.
func (p *pos) attackKind(i int, s uint8) int {
	var n [numPats]int
	for _, pt := range p.pat[s-1][i] {
		n[pt]++
	}
	switch {
	case n[patFour] == 1 && n[patThreeO] > 0:
		return atkFour3
	case n[patFour] == 1 && n[patThree]+n[patTwoO]+n[patTwo] > 0:
		return atkFourAnd
	case n[patThreeO] >= 2:
		return atkDouble3
	case n[patThreeO] == 1 && n[patThree]+n[patTwoO]+n[patTwo] > 0:
		return atkThreeAnd
	}
	return atkNone
}

// nearLine reports whether cell i lies on one of the four lines through
// cell c within r cells of it, or a knight's move away when knight is set.
func (p *pos) nearLine(i, c, r int, knight bool) bool {
	dx, dy := i%p.stride-c%p.stride, i/p.stride-c/p.stride
	ax, ay := max(dx, -dx), max(dy, -dy)
	switch {
	case ax == 0 && ay == 0:
		return false
	case ax == 0 || ay == 0 || ax == ay:
		return max(ax, ay) <= r
	}
	return knight && (ax == 1 && ay == 2 || ax == 2 && ay == 1)
}

// vctn reports whether the side to move wins by narrow continuous threats
// within plies plies; last is the attacker's latest stone (-1: none). It
// records the first attacking move in s.threatMove[ply].
func (s *searcher) vctn(plies, ply, last int) bool {
	if s.tick() || ply >= maxPly-4 {
		return false
	}
	p := s.p
	me, op := p.side, 3-p.side
	ms, th := p.scan(s.buf(ply))
	switch {
	case th.myFive >= 0:
		s.threatMove[ply] = th.myFive
		return true
	case th.oppFives >= 2 || th.oppFiveFoul:
		return false
	case th.oppFive >= 0:
		// Block, and go on only if the block is itself a threat.
		c := th.oppFive
		s.play(int(c))
		win := s.vctnDefend(plies-1, ply+1, last)
		p.undo()
		if win {
			s.threatMove[ply] = c
		}
		return win
	case th.myFlex >= 0:
		s.threatMove[ply] = th.myFlex
		return true
	}
	if plies <= 0 {
		return false
	}
	oppFours := false
	kinds := &s.atkBufs[ply]
	for k := range kinds {
		kinds[k] = kinds[k][:0]
	}
	for _, m := range ms {
		i := int(m.cell)
		if l, _ := p.level(i, op); l >= tFour {
			oppFours = true
		}
		k := p.attackKind(i, me)
		switch {
		case k == atkNone,
			k == atkFourAnd && (last < 0 || !p.nearLine(i, last, p.k-1, false)),
			k == atkThreeAnd && (last < 0 || !p.nearLine(i, last, p.k-2, true)):
			continue
		}
		kinds[k] = append(kinds[k], m)
	}
	// A four-three or two open threes win outright when the opponent has
	// no four to answer with.
	for _, k := range []int{atkFour3, atkDouble3} {
		if len(kinds[k]) > 0 && !oppFours {
			s.threatMove[ply] = kinds[k][0].cell
			return true
		}
	}
	for _, list := range kinds {
		sortMoves(list)
		for _, m := range list {
			s.play(int(m.cell))
			win := s.vctnDefend(plies-1, ply+1, int(m.cell))
			p.undo()
			if win {
				s.threatMove[ply] = m.cell
				return true
			}
			if s.stopped {
				return false
			}
		}
	}
	return false
}

// vctnDefend reports whether the attacker, who just moved, wins by narrow
// continuous threats whatever the side to move answers.
func (s *searcher) vctnDefend(plies, ply, last int) bool {
	if s.tick() {
		return false
	}
	p := s.p
	ms, th := p.scan(s.buf(ply))
	switch {
	case th.myFive >= 0:
		return false
	case th.oppFives >= 2 || th.oppFiveFoul:
		return true
	case th.oppFive >= 0:
		ms = append(ms[:0], move{th.oppFive, 0})
	case th.myFlex >= 0 || !th.oppFlex:
		// The defender makes an open four, or the attacker made no threat.
		return false
	case plies <= 0:
		return false
	default:
		ms = p.defences(ms)
	}
	list := append([]move(nil), ms...)
	for _, m := range list {
		s.play(int(m.cell))
		win := s.vctn(plies-1, ply+1, last)
		p.undo()
		if !win {
			return false
		}
	}
	return !s.stopped
}

// lastStone returns the latest stone of the side to move, or -1.
func (p *pos) lastStone() int {
	if n := len(p.stack); n >= 2 {
		return int(p.stack[n-2])
	}
	return -1
}

// How the root uses the narrow threat search on open boards. Hard with all
// three beat the version without them 58.5% over 200 self-play games at
// 500 ms a move (95% 51.6–65.1), and scored 55.0% in 100 games against
// AIWine at 500 ms, where a version checking with the general VCT in their
// place scored 41.0% on the same openings.
const (
	rootNarrowPlies = 16 // deepest own narrow VCT looked for at the root, from 10 plies up
	rootNarrowShare = 5  // ... within 1/5 of the budget
	guardPlies      = 10 // every root move is checked for an opponent's win this deep
	guardShare      = 4  // ... all of them within 1/4 of the budget, or none is dropped
	guardBestPlies  = 14 // each new best move of an iteration is checked this deep
	checkShare      = 8  // one check takes at most 1/8 of the budget
)

// rootVCT reports whether the side to move wins by continuous threats: on
// open boards by the narrow search, deepening from 10 plies to
// rootNarrowPlies, or the general one to vctRoot attacking moves, all
// within 1/rootNarrowShare of the budget; on small boards and under renju
// by the general one alone.
func (s *searcher) rootVCT() bool {
	if s.small || s.p.renju {
		return s.vct(vctRoot, 0)
	}
	win := false
	s.within(s.lim.part(s.nodes, 1, rootNarrowShare), func() {
		for d := 10; d <= rootNarrowPlies && !win && !s.stopped; d += 2 {
			win = s.vctn(d, 0, s.p.lastStone())
		}
		if !win && !s.stopped {
			win = s.vct(vctRoot, 0)
		}
	})
	return win
}

// dropRefuted returns the root moves after which the opponent has no
// narrow VCT of guardPlies plies; root itself when every move has one, or
// when the checks did not all finish within 1/guardShare of the budget.
func (s *searcher) dropRefuted(root []move) []move {
	if len(root) < 2 {
		return root
	}
	var keep []move
	done := true
	s.within(s.lim.part(s.nodes, 1, guardShare), func() {
		for _, m := range root {
			if s.stopped {
				done = false
				return
			}
			if !s.refuted(int(m.cell), guardPlies) {
				keep = append(keep, m)
			}
		}
	})
	if !done || len(keep) == 0 {
		return root
	}
	return keep
}

// refuted reports whether the opponent wins by a narrow VCT of at most
// plies plies after the side to move plays cell, looked for within
// 1/checkShare of the budget.
func (s *searcher) refuted(cell, plies int) bool {
	s.play(cell)
	defer s.p.undo()
	win := false
	s.within(s.lim.part(s.nodes, 1, checkShare), func() {
		win = s.vctn(plies, 1, s.p.lastStone())
	})
	return win
}

// within runs f under the tighter limits l, then returns to the search's
// own: a stop that only l called for does not stop the search.
func (s *searcher) within(l limits, f func()) {
	full := s.lim
	s.lim, s.nextCheck = l, s.nodes
	f()
	s.lim, s.nextCheck = full, s.nodes
	s.stopped = full.expired(s.nodes)
}
