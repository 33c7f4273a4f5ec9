package engine

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomGames plays games seeded random games under r, mostly strong
// moves so that fours and fives occur, and calls visit at every position
// with the scan's moves and threats. It fails the test when fewer than one
// position in fourShare had a four to make for the side to move: such
// games would not test fours.
func randomGames(t *testing.T, r Rules, rng *rand.Rand, games, fourShare int, visit func(game, ply int, p *pos, ms []move, th threats)) {
	t.Helper()
	positions, withFours := 0, 0
	for game := range games {
		b, err := NewBoard(r)
		if err != nil {
			t.Fatal(err)
		}
		p := newPos(b)
		for ply := 0; ply < r.Width*r.Height; ply++ {
			ms, th := p.scan(nil)
			visit(game, ply, p, ms, th)
			positions++
			if th.myFours > 0 {
				withFours++
			}
			if len(ms) == 0 || th.myFive >= 0 {
				break
			}
			sortMoves(ms)
			p.play(int(ms[rng.IntN(min(len(ms), 4))].cell))
		}
	}
	t.Logf("%d positions, %d with a four to make", positions, withFours)
	if withFours < positions/fourShare {
		t.Fatalf("only %d of %d positions had a four to make: the games do not test it", withFours, positions)
	}
}

// fourRules are the rules the random-game tests play under: each gomoku
// rule and a small board.
var fourRules = map[string]Rules{
	"freestyle": {Width: 15, Height: 15, K: 5},
	"exact":     {Width: 15, Height: 15, K: 5, Exact: true},
	"renju":     {Width: 15, Height: 15, K: 5, Renju: true},
	"small":     {Width: 7, Height: 7, K: 4},
}

// TestScanFoursAgreesWithScan plays seeded random games under each gomoku
// rule and checks at every position that scanFours reports what scan does
// about fives and fours: the same four moves in the same order with the
// same values, and the same fives, unstoppable fours and count of fours.
func TestScanFoursAgreesWithScan(t *testing.T) {
	for name, r := range fourRules {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(17, uint64(len(name))))
			randomGames(t, r, rng, 60, 10, func(game, ply int, p *pos, ms []move, th threats) {
				fours, fth := p.scanFours(nil)
				var want []move
				for _, m := range ms {
					if l, _ := p.level(int(m.cell), p.side); l >= tFour {
						want = append(want, m)
					}
				}
				got := threats{myFive: fth.myFive, oppFive: fth.oppFive, oppFives: fth.oppFives, oppFiveFoul: fth.oppFiveFoul, myFlex: fth.myFlex, myFours: fth.myFours}
				all := threats{myFive: th.myFive, oppFive: th.oppFive, oppFives: th.oppFives, oppFiveFoul: th.oppFiveFoul, myFlex: th.myFlex, myFours: th.myFours}
				if got != all || !slices.Equal(fours, want) {
					t.Fatalf("game %d ply %d: scanFours %+v %v, scan %+v %v", game, ply, got, fours, all, want)
				}
			})
		})
	}
}

// TestLevelCountsAgreeWithScan plays seeded random games, taking moves
// back at random as the search does, and checks that the incremental
// counts of cells by threat level and (where kept) by build-up match a
// recount, that the threats a leaf reads from them match the scan's
// (except under renju, where fouls make the leaf scan in some positions),
// and that a leaf read from them has the value the scan gives it.
func TestLevelCountsAgreeWithScan(t *testing.T) {
	rules := maps.Clone(fourRules)
	rules["k6"] = Rules{Width: 12, Height: 12, K: 6}
	for name, r := range rules {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(23, uint64(len(name))))
			randomGames(t, r, rng, 24, 20, func(game, ply int, p *pos, ms []move, th threats) {
				var recount [2]levelCounts
				var rebuilds [2]buildCounts
				for _, i := range p.onBoard {
					if p.cells[i] == cEmpty {
						for s := range 2 {
							recount[s][comboLevels[p.combo[s][i]]]++
							if p.keepBuilds {
								rebuilds[s][comboBuilds[p.combo[s][i]]]++
							}
						}
					}
				}
				if recount != p.levels || rebuilds != p.builds {
					t.Fatalf("game %d ply %d: counts %v and %v, recount %v and %v", game, ply, p.levels, p.builds, recount, rebuilds)
				}
				me, op := p.levels[p.side-1], p.levels[2-p.side]
				if !r.Renju {
					got := [5]int32{b2i(me[tFive] > 0), op[tFive], b2i(me[tFlex] > 0), b2i(op[tFlex] > 0), me.fours() + me[tFlex] + me[tFive]}
					want := [5]int32{b2i(th.myFive >= 0), int32(th.oppFives), b2i(th.myFlex >= 0), b2i(th.oppFlex), int32(th.myFours)}
					if got != want {
						t.Fatalf("game %d ply %d: from the counts %v, from the scan %v", game, ply, got, want)
					}
				}
				for _, window := range [][2]int32{{-infinity, infinity}, {-100, 100}, {0, 1}} {
					var v [2]int32
					for i, counts := range []bool{false, true} {
						tt := getTT(1<<12, true)
						s := newSearcher(p, tt, newLimits(context.Background(), 0, 1<<30))
						s.counts = counts
						v[i] = s.search(0, 1, window[0], window[1])
						putTT(tt)
					}
					if v[0] != v[1] {
						t.Fatalf("game %d ply %d: a leaf in %v is %d from the counts, %d from the scan", game, ply, window, v[1], v[0])
					}
				}
				if len(ms) > 0 && rng.IntN(3) == 0 {
					// A move taken back restores the counts.
					before, builds := p.levels, p.builds
					p.play(int(ms[rng.IntN(len(ms))].cell))
					p.undo()
					if p.levels != before || p.builds != builds {
						t.Fatalf("game %d ply %d: counts %v and %v after a move and its undo, %v and %v before", game, ply, p.levels, p.builds, before, builds)
					}
				}
			})
		})
	}
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// TestLeafCountsRenjuDoubleFour checks a leaf where Black's only
// unstoppable four is a double-four foul: the counts see a cell that wins,
// the search must not; and with White to move, no threat to answer.
func TestLeafCountsRenjuDoubleFour(t *testing.T) {
	r := Rules{Width: 15, Height: 15, K: 5, Renju: true}
	black := []Point{{4, 7}, {5, 7}, {6, 7}, {7, 4}, {7, 5}, {7, 6}}
	white := []Point{{3, 7}, {7, 3}, {0, 14}, {2, 14}, {14, 0}, {14, 2}}
	b, err := Setup(r, black, white)
	if err != nil {
		t.Fatal(err)
	}
	if f := b.Foul(Point{7, 7}); f != DoubleFour {
		t.Fatalf("7,7 is %v for Black, want a double four", f)
	}
	p := newPos(b)
	if p.levels[cBlack-1][tFlex] == 0 {
		t.Fatal("the counts do not see the double four: the position does not test the leaf")
	}
	for _, counts := range []bool{false, true} {
		s := newSearcher(p, getTT(1<<12, true), newLimits(context.Background(), 0, 1<<30))
		s.counts = counts
		if v := s.search(0, 1, -infinity, infinity); v > winBound {
			t.Errorf("counts %v: the leaf scores %d, a win through a foul", counts, v)
		}
	}
	// With White to move, the foul is no threat White must answer.
	b, err = Setup(r, black, white[:5])
	if err != nil {
		t.Fatal(err)
	}
	p = newPos(b)
	var v [2]int32
	for i, counts := range []bool{false, true} {
		s := newSearcher(p, getTT(1<<12, true), newLimits(context.Background(), 0, 1<<30))
		s.counts = counts
		v[i] = s.search(0, 1, -infinity, infinity)
	}
	if v[0] != v[1] {
		t.Errorf("White to move: the leaf scores %d from the counts, %d from the scan", v[1], v[0])
	}
}
