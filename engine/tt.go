package engine

import "sync"

// DefaultTTBytes is the transposition table size hard uses when
// Options.TTBytes is zero: 16 MiB.
const DefaultTTBytes = 16 << 20

// ttEntrySize is the bytes one table entry takes.
const ttEntrySize = 16

// Bound kinds of a stored score.
const (
	ttExact uint8 = iota + 1
	ttLower
	ttUpper
)

// ttEntry is one slot: the full position key and the packed data (move,
// score, depth, bound).
type ttEntry struct {
	key  uint64
	data uint64
}

// ttable is a fixed-size, always-replace-if-deeper transposition table
// indexed by Zobrist key. It is owned by one search at a time.
type ttable struct {
	slots []ttEntry
	mask  uint64
}

// ttPools recycles tables between moves and players, one pool per size,
// so that making a player stays cheap. The pools are safe for concurrent
// use; a table is used by one search at a time.
var ttPools sync.Map // int (slot count) -> *sync.Pool

// getTT returns a table of at most bytes bytes (at least one slot), from
// the pool when one is free. A pooled table is cleared when clean is set;
// otherwise it keeps what earlier searches stored (see hard.Move).
func getTT(bytes int, clean bool) *ttable {
	n := 1
	for n*2*ttEntrySize <= bytes {
		n *= 2
	}
	pl, _ := ttPools.LoadOrStore(n, &sync.Pool{})
	if t, ok := pl.(*sync.Pool).Get().(*ttable); ok {
		if clean {
			clear(t.slots)
		}
		return t
	}
	return &ttable{slots: make([]ttEntry, n), mask: uint64(n - 1)}
}

// putTT returns t to its pool.
func putTT(t *ttable) {
	if pl, ok := ttPools.Load(len(t.slots)); ok {
		pl.(*sync.Pool).Put(t)
	}
}

// probe returns the entry stored for key: move cell, score, depth, bound,
// and whether there is one.
func (t *ttable) probe(key uint64) (cell int32, score int32, depth int, bound uint8, ok bool) {
	e := &t.slots[key&t.mask]
	if e.key != key || e.data == 0 {
		return -1, 0, 0, 0, false
	}
	d := e.data
	return int32(int16(d)), int32(uint32(d >> 16)), int(int8(d >> 48)), uint8(d >> 56), true
}

// store saves a result for key, replacing a shallower or different entry.
func (t *ttable) store(key uint64, cell int32, score int32, depth int, bound uint8) {
	e := &t.slots[key&t.mask]
	if e.key == key && int(int8(e.data>>48)) > depth {
		return
	}
	e.key = key
	e.data = uint64(uint16(int16(cell))) | uint64(uint32(score))<<16 | uint64(uint8(int8(depth)))<<48 | uint64(bound)<<56
}

// toTT and fromTT convert win scores between "from the root" and "from this
// node", so a stored win keeps its distance wherever it is found again.
func toTT(score int32, ply int) int32 {
	switch {
	case score > winBound:
		return score + int32(ply)
	case score < -winBound:
		return score - int32(ply)
	}
	return score
}

func fromTT(score int32, ply int) int32 {
	switch {
	case score > winBound:
		return score - int32(ply)
	case score < -winBound:
		return score + int32(ply)
	}
	return score
}
