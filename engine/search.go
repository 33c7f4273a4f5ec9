package engine

import "slices"

// maxPly bounds the depth of any search line, extensions included.
const maxPly = 128

// Search widths and threat-search depths.
const (
	rootWidth  = 24 // root candidates searched
	innerWidth = 12 // candidates searched at inner nodes
	vcfInner   = 8  // attacking moves of the VCF at leaves, in threat searches and at small boards' inner nodes
	vcfRoot    = 30 // attacking moves of the VCF run at the root
	vctRoot    = 4  // attacking moves of the VCT run at the root
)

// Late-move reductions on open boards: at inner nodes, the moves from the
// lmrFrom-th on (in search order) are first searched one ply shallower
// when at least lmrDepth plies would remain after them, and the inner
// width is innerWidthLMR instead of innerWidth. Together they beat the
// search without over 200 self-play games at 500 ms a move: 57.5% (95%
// 50.6–64.1, Elo +53); the reductions alone at width 12 scored 53.8% over
// 400 (95% 48.9–58.6).
const (
	lmrFrom       = 4
	lmrDepth      = 2
	innerWidthLMR = 16
)

// Reverse futility pruning on open boards (see search): at most
// futilityDepth plies from the leaves, with a margin of futilityMargin a
// ply. It beat the search without in self-play (see docs/engine.md,
// "Against Rapfi").
const (
	futilityDepth  = 2
	futilityMargin = 150
)

// Singular extension on open boards (see search): at nodes at least
// singularDepth plies from the leaves and fewer than singularPly from the
// root, with a margin of singularMargin a ply. It beat the search without
// in self-play at the clock (see docs/engine.md, "Against Rapfi").
const (
	singularDepth  = 6
	singularMargin = 20
	singularPly    = 40
)

// searcher is one search of one position: iterative-deepening principal
// variation search over pos, with a transposition table, killer and
// history move ordering, and threat-space search.
type searcher struct {
	p          *pos
	tt         *ttable
	lim        limits
	nodes      int64
	stopped    bool
	bufs       [maxPly][]move
	vcfBufs    [maxPly][]move          // vcf's own lists, so that it never overwrites a caller's
	atkBufs    [maxPly][atkNone][]move // vctn's attacking moves by kind
	killers    [maxPly][2]int32
	history    []int32
	threatMove [maxPly]int32
	excluded   [maxPly]int32 // the move a singular test leaves out at each ply, or -1
	vcfMemo    []vcfSlot
	vcfPath    []int32 // the attacking stones of the VCF under way
	depth      int     // deepest iteration finished
	nextCheck  int64
	root       uint8 // the side to move at the root
	small      bool  // the board is small: see rootOwn
	lmr        bool  // late moves are reduced and inner nodes wider: see lmrFrom
	// counts: leaves read their threats from the counts of cells by
	// threat level (pos.levels) where that saves a scan (tests turn it off
	// to compare with the scan).
	counts bool
	// salt is mixed into the keys of the table, one value per root side:
	// on small boards the value of a position depends on the side to move
	// at the root (see own), and a table outlives its search.
	salt uint64
}

// newSearcher prepares a search of p with table tt.
func newSearcher(p *pos, tt *ttable, lim limits) *searcher {
	s := &searcher{p: p, tt: tt, lim: lim, history: make([]int32, len(p.cells)), vcfMemo: make([]vcfSlot, vcfMemoSize), root: p.side, small: min(p.w, p.h) < openBoard, counts: true}
	s.lmr = !s.small
	if s.root == cWhite {
		s.salt = 0x9e3779b97f4a7c15
	}
	for i := range s.killers {
		s.killers[i] = [2]int32{-1, -1}
		s.excluded[i] = -1
	}
	return s
}

// play makes a move in the search; every move made counts as a node.
func (s *searcher) play(i int) {
	s.p.play(i)
	s.nodes++
}

// tick reports whether the search must stop, looking at the limits once
// every checkEvery nodes.
func (s *searcher) tick() bool {
	if !s.stopped && s.nodes >= s.nextCheck {
		s.nextCheck = s.nodes + checkEvery
		s.stopped = s.lim.expired(s.nodes)
	}
	return s.stopped
}

// buf returns the empty move buffer of ply.
func (s *searcher) buf(ply int) []move {
	if s.bufs[ply] == nil {
		s.bufs[ply] = make([]move, 0, len(s.p.onBoard)+1)
	}
	return s.bufs[ply][:0]
}

// vcfBuf returns the empty move buffer of vcf at ply.
func (s *searcher) vcfBuf(ply int) []move {
	if s.vcfBufs[ply] == nil {
		s.vcfBufs[ply] = make([]move, 0, len(s.p.onBoard)+1)
	}
	return s.vcfBufs[ply][:0]
}

// best returns the move the search chooses for the side to move of p,
// which must have at least one empty cell, and its score.
func (s *searcher) best() (int, int32) {
	p := s.p
	_, th := p.scan(s.buf(0))
	switch {
	case th.myFive >= 0:
		return int(th.myFive), winScore - 1
	case th.oppFive >= 0 && !th.oppFiveFoul:
		return int(th.oppFive), 0
	case th.myFlex >= 0:
		return int(th.myFlex), winScore - 3
	}
	if th.myFours > 0 && s.vcf(vcfRoot, 0, allFours) {
		return int(s.threatMove[0]), winScore - 5
	}
	if !s.stopped && th.myThreats > 0 && s.rootVCT() {
		return int(s.threatMove[0]), winScore - 7
	}
	ms, _ := p.scan(s.buf(0))
	if th.oppFlex {
		if d := p.defences(append([]move(nil), ms...)); len(d) > 0 {
			ms = d
		}
	}
	if len(ms) == 0 {
		// Under renju every cell near the stones is a foul for Black.
		return -1, -winScore
	}
	sortMoves(ms)
	if len(ms) > rootWidth {
		ms = ms[:rootWidth]
	}
	root := append([]move(nil), ms...)
	// On open boards the narrow threat search guards the root: moves
	// after which the opponent wins by it are left out (see vctn.go).
	guard := !s.small && !p.renju
	if guard {
		root = s.dropRefuted(root)
	}
	bestCell, bestScore := int(root[0].cell), int32(0)
	checked := map[int]bool{}
	var dropped []move
	full := s.lim
	if s.small {
		s.lim = full.share()
	}
	for depth := 1; depth < maxPly/2; depth++ {
		s.stopped = s.stopped || s.lim.expired(s.nodes)
		if s.stopped {
			break
		}
		cell, score, done, refuted := s.rootIteration(root, depth, guard, checked)
		for _, c := range refuted {
			i := slices.IndexFunc(root, func(m move) bool { return int(m.cell) == c })
			dropped = append(dropped, root[i])
			root = slices.Delete(root, i, i+1)
			if bestCell == c {
				bestCell = int(root[0].cell)
			}
		}
		if done && score < -winBound && len(dropped) > 0 {
			// Every move left loses: the dropped ones may hold out longer.
			root, dropped, guard = append(root, dropped...), nil, false
			depth--
			continue
		}
		if done {
			s.depth = depth
		}
		// On open boards a move that beat the best one in an iteration
		// the clock cut short is played. On small boards only finished
		// iterations count: with an evaluation that differs between odd
		// and even depths, the partial result of a deeper one played worse
		// in calibration games (91.5% against medium on 7×7 over 200 games,
		// against 95.2%).
		if done || !s.small && cell >= 0 {
			bestCell, bestScore = cell, score
		}
		if !done || score > winBound || score < -winBound || s.lim.pastSoft(s.nodes) {
			break
		}
		// Search the best move first next time.
		for i, m := range root {
			if int(m.cell) == bestCell {
				copy(root[1:i+1], root[:i])
				root[0] = m
				break
			}
		}
	}
	if s.small {
		s.lim, s.stopped, s.nextCheck = full, false, 0
		if bestScore > -winBound && bestScore < winBound {
			bestCell = s.trap(root, bestCell, bestScore)
		}
	}
	return bestCell, bestScore
}

// rootIteration searches every root move to depth and returns the best
// move found (-1 if none was searched fully), its score, whether the
// iteration finished, and the moves it found refuted. With guard, a move
// that becomes the best is first checked more deeply (once a search: see
// checked); if the opponent wins after it, it is refuted and does not
// count. The last move left is never refuted.
func (s *searcher) rootIteration(root []move, depth int, guard bool, checked map[int]bool) (int, int32, bool, []int) {
	alpha, beta := int32(-infinity), int32(infinity)
	best := -1
	var refuted []int
	for i, m := range root {
		s.play(int(m.cell))
		var score int32
		if i == 0 {
			score = -s.search(depth-1, 1, -beta, -alpha)
		} else {
			score = -s.search(depth-1, 1, -alpha-1, -alpha)
			if score > alpha && !s.stopped {
				score = -s.search(depth-1, 1, -beta, -alpha)
			}
		}
		s.p.undo()
		if s.stopped {
			return best, alpha, false, refuted
		}
		if score <= alpha {
			continue
		}
		if c := int(m.cell); guard && len(root)-len(refuted) > 1 && score > -winBound && score < winBound && !checked[c] {
			checked[c] = true
			r := s.refuted(c, guardBestPlies)
			if s.stopped {
				return best, alpha, false, refuted
			}
			if r {
				refuted = append(refuted, c)
				continue
			}
		}
		alpha, best = score, int(m.cell)
	}
	return best, alpha, true, refuted
}

// search returns the score of the position for the side to move, searched
// depth plies deep (forced replies extend it), within the window
// (alpha, beta).
func (s *searcher) search(depth, ply int, alpha, beta int32) int32 {
	if s.tick() {
		return 0
	}
	p := s.p
	if depth <= 0 && s.counts {
		if v, ok := s.leaf(ply, beta); ok {
			return v
		}
	}
	ms, th := p.scan(s.buf(ply))
	s.bufs[ply] = ms
	switch {
	case th.myFive >= 0:
		return winScore - int32(ply)
	case th.oppFives >= 2 || th.oppFiveFoul:
		return -(winScore - int32(ply) - 1)
	case len(ms) == 0:
		return 0
	}
	forced := th.oppFive >= 0
	if forced {
		ms = append(ms[:0], move{th.oppFive, 0})
	} else {
		if th.myFlex >= 0 {
			return winScore - int32(ply) - 2
		}
		if depth <= 0 || ply >= maxPly-2 {
			v := s.static(th)
			// A leaf where the side to move wins by fours is a win (kept
			// for beating the version without: 58.1% over 283 fixed-node
			// self-play games, SPRT 0/30 accepted).
			if v < beta && th.myFours > 0 && s.leafVCF(ply) {
				return winScore - int32(ply) - 3
			}
			return v
		}
		// On small boards an inner node where the side to move wins by
		// fours is a win too. On open boards the search finds such wins
		// through its own moves and the leaves' VCF, and spends the nodes
		// better there: without this VCF it beat the version with it in
		// self-play (see docs/engine.md, "Against Rapfi").
		if s.small && th.myFours > 0 && s.vcf(vcfInner, ply, allFours) {
			return winScore - int32(ply) - 3
		}
		if th.oppFlex {
			ms = p.defences(ms)
		}
	}
	// A singular test searches this node again without one move: the
	// table's result for the node does not answer it.
	excluded := s.excluded[ply]
	ttCell, ttScore, ttDepth, ttBound, ok := s.tt.probe(p.hash ^ s.salt)
	if ok && ttDepth >= depth && excluded < 0 {
		sc := fromTT(ttScore, ply)
		switch {
		case ttBound == ttExact,
			ttBound == ttLower && sc >= beta,
			ttBound == ttUpper && sc <= alpha:
			return sc
		}
	}
	// Reverse futility on open boards: a null-window node near the leaves
	// whose static value beats beta by futilityMargin for each ply left
	// is taken to fail high, unless the side to move must answer a five
	// or an open three.
	if !s.small && !forced && !th.oppFlex && depth <= futilityDepth && beta-alpha == 1 && beta > -winBound && beta < winBound {
		if v := s.static(th); v-futilityMargin*int32(depth) >= beta {
			return v
		}
	}
	extend := int32(-1)
	if !s.small && !forced && excluded < 0 && depth >= singularDepth && ply < singularPly && ok && ttCell >= 0 && ttBound != ttUpper && ttDepth >= depth-2 {
		var cut bool
		var v int32
		if extend, v, cut = s.singular(ms, ply, depth, ttCell, fromTT(ttScore, ply), beta); cut {
			return v
		}
		if s.stopped {
			return 0
		}
	}
	if !forced {
		k := &s.killers[ply]
		for i := range ms {
			m := &ms[i]
			switch m.cell {
			case ttCell:
				m.value += 1 << 28
			case k[0], k[1]:
				m.value += 1 << 16
			}
			m.value += s.history[m.cell]
		}
		sortMoves(ms)
		width := innerWidth
		if s.lmr {
			width = innerWidthLMR
		}
		if len(ms) > width {
			ms = ms[:width]
		}
	}
	alpha0 := alpha
	best, bestCell := int32(-infinity), int32(-1)
	for i, m := range ms {
		if m.cell == excluded {
			continue
		}
		d := depth - 1
		if forced || m.cell == extend {
			d = depth
		}
		s.play(int(m.cell))
		var score int32
		if i == 0 {
			score = -s.search(d, ply+1, -beta, -alpha)
		} else {
			// A late move is first searched a ply shallower, and again at
			// full depth only if it then beats alpha.
			r := 0
			if s.lmr && !forced && d >= lmrDepth && i >= lmrFrom {
				r = 1
			}
			score = -s.search(d-r, ply+1, -alpha-1, -alpha)
			if r > 0 && score > alpha && !s.stopped {
				score = -s.search(d, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta && !s.stopped {
				score = -s.search(d, ply+1, -beta, -alpha)
			}
		}
		p.undo()
		if s.stopped {
			return 0
		}
		if score > best {
			best, bestCell = score, m.cell
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			if !forced {
				k := &s.killers[ply]
				if k[0] != m.cell {
					k[1], k[0] = k[0], m.cell
				}
				s.history[m.cell] += int32(depth * depth)
			}
			break
		}
	}
	bound := ttExact
	switch {
	case best <= alpha0:
		bound = ttUpper
	case best >= beta:
		bound = ttLower
	}
	if excluded < 0 {
		s.tt.store(p.hash^s.salt, bestCell, toTT(best, ply), depth, bound)
	}
	return best
}

// singular tests, at a node depth plies from the leaves with candidate
// moves ms, whether the table's move ttCell, which scored at least
// ttScore there before, is the only good one: the other moves are
// searched to half the depth against ttScore less singularMargin a ply.
// If none reaches that, it returns ttCell, to be searched a ply deeper.
// If one does and that bound beats beta too, cut is set and v is the
// bound: two moves beat beta, and the node is taken to fail high with it
// (multi-cut). ms is kept.
func (s *searcher) singular(ms []move, ply, depth int, ttCell, ttScore, beta int32) (extend, v int32, cut bool) {
	if ttScore <= -winBound || ttScore >= winBound {
		return -1, 0, false
	}
	sb := ttScore - singularMargin*int32(depth)
	saved := append([]move(nil), ms...)
	s.excluded[ply] = ttCell
	v = s.search(depth/2, ply, sb-1, sb)
	s.excluded[ply] = -1
	// The test searched this node again, in the same move buffer.
	copy(ms, saved)
	switch {
	case s.stopped:
		return -1, 0, false
	case v < sb:
		return ttCell, 0, false
	}
	return -1, sb, sb >= beta
}

// leaf returns what search returns at a leaf (depth 0), read from the
// counts of cells by threat level instead of a scan of the board. ok is
// false where it needs the scan: when the opponent threatens a five that
// must be answered (the search goes on), on a full board, and under renju
// when Black has a cell counted as an unstoppable four, which may be a
// foul. (Black's fours counted with its fouls only call a VCF that finds
// nothing more.)
func (s *searcher) leaf(ply int, beta int32) (v int32, ok bool) {
	p := s.p
	me, op := &p.levels[p.side-1], &p.levels[2-p.side]
	switch {
	case me[tFive] > 0:
		return winScore - int32(ply), true
	case op[tFive] >= 2:
		return -(winScore - int32(ply) - 1), true
	case op[tFive] > 0 || len(p.stack) == len(p.onBoard):
		return 0, false
	case p.renju && (p.side == cBlack && me[tFlex] > 0 || p.side == cWhite && op[tFlex] > 0):
		// Black's unstoppable four may be a foul.
		return 0, false
	case me[tFlex] > 0:
		return winScore - int32(ply) - 2, true
	}
	th := noThreats()
	th.oppFlex, th.myFours = op[tFlex] > 0, int(me.fours())
	v = s.static(th)
	if v < beta && th.myFours > 0 && s.leafVCF(ply) {
		return winScore - int32(ply) - 3, true
	}
	return v, true
}

// leafVCF reports whether the side to move at a leaf wins by fours. Under
// renju it tries only the fours that build on the VCF's own (nearFours),
// as part of the change that beat the search without it there (see
// docs/engine.md, "Renju: fouls, threat values and the leaves' VCF"); in
// freestyle the same scored within noise at the clock.
func (s *searcher) leafVCF(ply int) bool {
	return s.vcf(vcfInner, ply, s.p.renju)
}

// static returns the value of a leaf for the side to move, given what
// the scan or the counts saw, before any threat search.
func (s *searcher) static(th threats) int32 {
	p := s.p
	if s.small {
		return p.evaluate(th) + s.own()
	}
	v := p.openValue(th)
	if t := p.leaf.threats[p.side-1]; t != nil {
		v += t[p.threatMask()]
	}
	if t := p.leaf.builds[p.side-1]; t != nil {
		v += t[p.buildMask()]
	}
	return v
}

// leafTables are the tables the leaf value reads under one set of rules:
// the values of the threat and build-up masks for each side to move, or
// nils, and what an empty cell adds to each side's line potential, by
// combo index (pos.score). A position keeps its own (pos.leaf).
type leafTables struct {
	threats [2]*[numMasks]int32
	builds  [2]*[numBuildMasks]int32
	cells   [2][]int32
}

// leafTablesOf returns the leaf's tables for p's rules, Black's first.
// The learned ones are fitted and measured for freestyle and renju five
// in a row on open boards (see docs/engine.md, "Threat values", "Renju:
// fouls, threat values and the leaves' VCF", "Build-ups" and "Cell
// values"); elsewhere a cell adds the leafWeight of its patterns.
func leafTablesOf(p *pos) leafTables {
	lt := leafTables{cells: [2][]int32{comboLeaf, comboLeaf}}
	if p.renju {
		lt.cells[0] = comboLeafRenjuBlack
	}
	switch {
	case p.k != 5 || p.exact || min(p.w, p.h) < openBoard:
	case p.renju:
		lt.threats = [2]*[numMasks]int32{(*[numMasks]int32)(threatValuesRenju[:numMasks]), (*[numMasks]int32)(threatValuesRenju[numMasks:])}
		lt.cells = [2][]int32{comboCellsRenjuBlack, comboCellsRenjuWhite}
	default:
		lt.threats = [2]*[numMasks]int32{&threatValuesFreestyle, &threatValuesFreestyle}
		lt.builds = [2]*[numBuildMasks]int32{&buildValuesFreestyle, &buildValuesFreestyle}
		lt.cells = [2][]int32{comboCellsFreestyle, comboCellsFreestyle}
	}
	return lt
}

// own returns, on a small board, what the line potential of the side to
// move at the root adds to the static value of the position for the side
// to move: weighed rootOwn/10, for the root side. The evaluation alone,
// which only weighs the opponent's potential, steers a deep search into
// blocked, drawn positions there; valuing its own potential keeps hard's
// attacking chances.
func (s *searcher) own() int32 {
	rp := s.p.score[s.root-1] * rootOwn / 10
	if s.p.side == s.root {
		return rp
	}
	return -rp
}

// Small-board play: a board narrower than openBoard is small. There a full
// search against best defence mostly proves that attacks fail, and a
// deeper hard drifted into draws against medium (7×7 five in a row: about
// 93% at 100 ms or 100k nodes a move, over 100 games). Two things help it
// keep winning chances: valuing its own line potential at the leaves
// (own) and choosing, among root moves that score nearly as well as
// the best, the one that sets the most traps (trap). With both it scored
// 95.0%, 97.5% and 96.0% at 1 s a move, 95.0% and 95.5% at 200 ms, 95.0% at
// 100 ms and 94.5% at 100k nodes (100 games each); other weights and
// margins measured within a point of these.
const (
	rootOwn    = 20  // weight of the root side's own potential, in tenths
	trapMargin = 150 // how much worse than the best a trap move may score
	trapWidth  = 8   // root moves trap looks at
)

// trap returns, among the first trapWidth root moves that score at least
// best-trapMargin at the depth of the last finished iteration, the one
// after which the most replies of the opponent lose to a VCT; best when
// none beats it.
func (s *searcher) trap(root []move, best int, bestScore int32) int {
	if s.depth < 1 {
		return best
	}
	cands := []int{best}
	for _, m := range root {
		if len(cands) >= trapWidth {
			break
		}
		if int(m.cell) != best {
			cands = append(cands, int(m.cell))
		}
	}
	p := s.p
	t := bestScore - trapMargin
	choice, most := best, 0
	for i, c := range cands {
		s.play(c)
		safe := true
		if i > 0 {
			safe = -s.search(s.depth-1, 1, -t, -t+1) >= t
		}
		n := 0
		if safe && !s.stopped {
			ms, _ := p.scan(s.buf(1))
			replies := append([]move(nil), ms...)
			for _, r := range replies {
				s.play(int(r.cell))
				if s.vct(vctRoot, 2) {
					n++
				}
				p.undo()
				if s.stopped {
					break
				}
			}
		}
		p.undo()
		if s.stopped {
			break
		}
		if safe && n > most {
			choice, most = c, n
		}
	}
	return choice
}
