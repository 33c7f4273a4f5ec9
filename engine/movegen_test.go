package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestScanFoursAgreesWithScan plays seeded random games under each gomoku
// rule and checks at every position that scanFours reports what scan does
// about fives and fours: the same four moves in the same order with the
// same values, and the same fives, unstoppable fours and count of fours.
func TestScanFoursAgreesWithScan(t *testing.T) {
	rules := map[string]Rules{
		"freestyle": {Width: 15, Height: 15, K: 5},
		"exact":     {Width: 15, Height: 15, K: 5, Exact: true},
		"renju":     {Width: 15, Height: 15, K: 5, Renju: true},
		"small":     {Width: 7, Height: 7, K: 4},
	}
	for name, r := range rules {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(17, uint64(len(name))))
			positions, withFours := 0, 0
			for game := range 60 {
				b, err := NewBoard(r)
				if err != nil {
					t.Fatal(err)
				}
				p := newPos(b)
				for ply := 0; ply < r.Width*r.Height; ply++ {
					ms, th := p.scan(nil)
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
					positions++
					if len(want) > 0 {
						withFours++
					}
					if len(ms) == 0 || th.myFive >= 0 {
						break
					}
					// Mostly strong moves, so that fours and fives occur.
					sortMoves(ms)
					p.play(int(ms[rng.IntN(min(len(ms), 4))].cell))
				}
			}
			t.Logf("%d positions, %d with a four to make", positions, withFours)
			if withFours < positions/10 {
				t.Fatalf("only %d of %d positions had a four to make: the games do not test it", withFours, positions)
			}
		})
	}
}
