package engine

import (
	"context"
	"slices"
	"testing"
)

// A VCF that fails must leave the move list of the ply that asked for it
// as it was: search and vct go on with that list.
func TestFailedVCFKeepsTheCallersMoves(t *testing.T) {
	// Black's three on row 7 is closed at one end by White: two fours, no
	// VCF.
	b := mustPlay(t, Rules{15, 15, 5, false, false}, Point{7, 7}, Point{6, 7}, Point{8, 7}, Point{3, 3}, Point{9, 7}, Point{12, 12})
	p := newPos(b)
	tt := getTT(1<<20, true)
	defer putTT(tt)
	s := newSearcher(p, tt, newLimits(context.Background(), 0, 1_000_000))
	const ply = 3
	ms, th := p.scan(s.buf(ply))
	s.bufs[ply] = ms
	if th.myFours == 0 {
		t.Fatal("the position has no four for Black")
	}
	want := slices.Clone(ms)
	if s.vcf(vcfInner, ply) {
		t.Fatal("vcf found a win in a position without one")
	}
	if !slices.Equal(ms, want) {
		t.Errorf("a failed vcf changed the caller's moves:\n got %v\nwant %v", ms, want)
	}
}
