package engine

import (
	"context"
	"math/rand/v2"
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
	if s.vcf(vcfInner, ply, allFours) {
		t.Fatal("vcf found a win in a position without one")
	}
	if !slices.Equal(ms, want) {
		t.Errorf("a failed vcf changed the caller's moves:\n got %v\nwant %v", ms, want)
	}
}

// TestNearVCF checks the narrow VCF of the leaves: on the positions of
// seeded random games under each gomoku rule it claims no win the full
// VCF does not find, and finds most of them; and a renju position where
// only the full VCF wins shows that a narrow failure, kept in the table
// of failed positions, does not hide the win from the full one.
func TestNearVCF(t *testing.T) {
	for _, name := range []string{"freestyle", "exact", "renju"} {
		t.Run(name, func(t *testing.T) {
			r := fourRules[name]
			rng := rand.New(rand.NewPCG(41, 3))
			full, near := 0, 0
			randomGames(t, r, rng, 300, 40, func(game, ply int, p *pos, ms []move, th threats) {
				if th.myFours == 0 || th.myFive >= 0 || th.oppFive >= 0 || th.myFlex >= 0 {
					return
				}
				lim := newLimits(context.Background(), 0, 1<<40)
				wins := [2]bool{}
				for i, scope := range []bool{allFours, nearFours} {
					s := newSearcher(p, nil, lim)
					wins[i] = s.vcf(vcfInner, ply, scope)
				}
				if wins[1] && !wins[0] {
					t.Fatalf("game %d ply %d: the narrow VCF wins where the full one does not", game, ply)
				}
				if wins[0] {
					full++
				}
				if wins[1] {
					near++
				}
			})
			t.Logf("full VCF wins %d, narrow %d", full, near)
			if full < 10 || near*10 < full*9 {
				t.Errorf("the narrow VCF found %d of the full one's %d wins", near, full)
			}
		})
	}
	moves, err := ParseMoves("2,8 4,12 7,7 2,9 3,9 4,10 4,11 3,11 5,9 2,10 1,9 2,12 3,12 6,10 3,13")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Replay(fourRules["renju"], moves)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearcher(newPos(b), nil, newLimits(context.Background(), 0, 1<<40))
	if s.vcf(vcfInner, 0, nearFours) {
		t.Fatal("the narrow VCF wins: the position no longer tests the table")
	}
	if !s.vcf(vcfInner, 0, allFours) {
		t.Error("after the narrow VCF failed, the full VCF found no win")
	}
}

func TestLineNear(t *testing.T) {
	p := newPos(mustPlay(t, Rules{15, 15, 5, false, false}))
	at := func(x, y int) int32 { return int32(p.index(x, y)) }
	for _, c := range []struct {
		x, y int
		want bool
	}{
		{11, 7, true}, {12, 7, false}, {7, 3, true}, {11, 11, true}, {3, 11, true},
		{2, 12, false}, {8, 9, false}, {9, 8, false},
	} {
		if got := p.lineNear(int(at(c.x, c.y)), []int32{at(0, 0), at(7, 7)}); got != c.want {
			t.Errorf("(%d,%d) near (7,7): %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
