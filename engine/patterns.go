package engine

import "sync"

// Line patterns: what a stone of one side placed on an empty cell makes
// along one line, strongest last. "Four" means one move from a winning line
// of K, whatever K is; "open" means two ways to go on.
const (
	patDead   uint8 = iota // no K-window through the cell can ever win
	patOne                 // a live window, nothing more
	patTwo                 // one more stone makes a three
	patTwoO                // one more stone makes an open three
	patThree               // one more stone makes a four
	patThreeO              // one more stone makes an open four
	patFour                // one more stone wins, in one way
	patFourO               // one more stone wins, in two ways
	patFive                // the stone wins
)

// numPats is the number of line patterns.
const numPats = int(patFive) + 1

// Window cell states as seen by one side: the digits of a window key.
const (
	wEmpty   = 0
	wOwn     = 1
	wBlocked = 2 // the other side's stone or off the board
)

// patTable classifies the windows of one K and rule: for a cell, the 2K
// cells around it on one line (K each side) are the base-3 digits of an
// index. Small K have a dense table built once and shared read-only; larger
// K classify on demand into a map owned by one position.
type patTable struct {
	k     int
	exact bool
	dense []uint8
	pow3  []uint64
}

var (
	patMu     sync.Mutex
	patTables = map[[2]int]*patTable{}
)

// denseMaxK is the largest K whose patterns are tabulated (3^10 windows).
const denseMaxK = 5

// patternsFor returns the shared table for k and exact, building it the
// first time. It is safe for concurrent use.
func patternsFor(k int, exact bool) *patTable {
	key := [2]int{k, 0}
	if exact {
		key[1] = 1
	}
	patMu.Lock()
	defer patMu.Unlock()
	if t, ok := patTables[key]; ok {
		return t
	}
	t := &patTable{k: k, exact: exact, pow3: make([]uint64, 2*k)}
	p := uint64(1)
	for i := range t.pow3 {
		t.pow3[i] = p
		p *= 3
	}
	if k <= denseMaxK {
		t.dense = make([]uint8, p)
		line := make([]uint8, 2*k+1)
		for idx := range t.dense {
			t.decode(uint64(idx), line)
			t.dense[idx] = classify(line, k, exact)
		}
	}
	patTables[key] = t
	return t
}

// digit returns the digit index of the cell at offset off (±1..±K) from
// the centre of a window.
func (t *patTable) digit(off int) int {
	if off < 0 {
		return off + t.k
	}
	return off + t.k - 1
}

// decode writes the window of index idx into line (2K+1 cells, the centre
// holding the own stone).
func (t *patTable) decode(idx uint64, line []uint8) {
	k := t.k
	for off := -k; off <= k; off++ {
		if off == 0 {
			line[k] = wOwn
			continue
		}
		line[off+k] = uint8(idx / t.pow3[t.digit(off)] % 3)
	}
}

// classify returns the pattern that the own stone at the centre of line
// (2K+1 cells) makes.
func classify(line []uint8, k int, exact bool) uint8 {
	c := len(line) / 2
	if isWin(line, c, k, exact) {
		return patFive
	}
	switch n := completions(line, c, k, exact); {
	case n >= 2:
		return patFourO
	case n == 1:
		return patFour
	}
	best := uint8(patDead)
	lo, hi := max(0, c-k+1), min(len(line)-1, c+k-1)
	for e := lo; e <= hi; e++ {
		if line[e] != wEmpty {
			continue
		}
		line[e] = wOwn
		switch n := completions(line, c, k, exact); {
		case n >= 2:
			best = patThreeO
		case n == 1:
			best = max(best, patThree)
		}
		line[e] = wEmpty
		if best == patThreeO {
			return best
		}
	}
	if best != patDead {
		return best
	}
	for e := lo; e <= hi; e++ {
		if line[e] != wEmpty {
			continue
		}
		line[e] = wOwn
		for f := e + 1; f <= hi; f++ {
			if line[f] != wEmpty {
				continue
			}
			line[f] = wOwn
			switch n := completions(line, c, k, exact); {
			case n >= 2:
				best = patTwoO
			case n == 1:
				best = max(best, patTwo)
			}
			line[f] = wEmpty
		}
		line[e] = wEmpty
		if best == patTwoO {
			return best
		}
	}
	if best != patDead {
		return best
	}
	for start := c - k + 1; start <= c; start++ {
		if start < 0 || start+k > len(line) {
			continue
		}
		live := true
		for i := start; i < start+k; i++ {
			live = live && line[i] != wBlocked
		}
		if live {
			return patOne
		}
	}
	return patDead
}

// completions counts the empty cells of line that would make a winning
// line through c.
func completions(line []uint8, c, k int, exact bool) int {
	n := 0
	for e := range line {
		if line[e] != wEmpty || e-c >= k || c-e >= k {
			continue
		}
		line[e] = wOwn
		if isWin(line, c, k, exact) {
			n++
		}
		line[e] = wEmpty
	}
	return n
}

// isWin reports whether the run of own stones through c is a winning line.
// A run that reaches the window's edge counts as longer than K, which only
// matters for exact rules, where the window is wide enough to see it end.
func isWin(line []uint8, c, k int, exact bool) bool {
	lo, hi := c, c
	for lo > 0 && line[lo-1] == wOwn {
		lo--
	}
	for hi < len(line)-1 && line[hi+1] == wOwn {
		hi++
	}
	n := hi - lo + 1
	if exact {
		return n == k
	}
	return n >= k
}
