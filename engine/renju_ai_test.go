package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// vcfOf reports whether the side to move of b wins by continuous fours,
// and the first move, as hard's root VCF sees it.
func vcfOf(b *Board) (bool, Point) {
	p := newPos(b)
	tt := getTT(1<<20, true)
	defer putTT(tt)
	s := newSearcher(p, tt, newLimits(context.Background(), 0, 1_000_000))
	win := s.vcf(vcfRoot, 0, allFours)
	return win, p.point(int(s.threatMove[0]))
}

// fourFour is a position where Black's only way to win by fours is the
// double four at *.
var fourFour = []string{
	"...............",
	"...............",
	"...............",
	"......O........",
	"......X........",
	"......X........",
	"......X........",
	"..OXXX*........",
	"...............",
}

func TestRenjuVCFAvoidsForbiddenPoints(t *testing.T) {
	free := renju
	free.Renju = false
	fb, star := diagramBoard(t, free, fourFour)
	if win, m := vcfOf(fb); !win || m != star {
		t.Fatalf("freestyle: VCF %v at %v, want a win at %v\n%s", win, m, star, show(fb))
	}
	rb, _ := diagramBoard(t, renju, fourFour)
	if f := rb.Foul(star); f != DoubleFour {
		t.Fatalf("Foul(%v) = %v, want double four", star, f)
	}
	if win, m := vcfOf(rb); win {
		t.Fatalf("renju: VCF found through %v, but the double four at %v is forbidden\n%s", m, star, show(rb))
	}
	for _, l := range Levels {
		for seed := range uint64(5) {
			ai, _ := NewPlayerWith(l, Options{Rand: rand.New(rand.NewPCG(seed, 9)), MaxNodes: 20_000, TTBytes: 1 << 20})
			m, err := ai.Move(context.Background(), rb)
			if err != nil || m == star || rb.Foul(m) != NoFoul {
				t.Fatalf("%v (seed %d) played %v (%v), a foul\n%s", l, seed, m, err, show(rb))
			}
		}
	}
}

// fourFourElsewhere is fourFour with a second way to win by fours for
// Black: the four-three at 4,13 (row 13 closed at 0, column 4 split),
// or fours down column 4 first.
var fourFourElsewhere = append(append([]string(nil), fourFour...),
	"...............",
	"....X..........",
	"....X..........",
	"...............",
	"OXXX...........",
)

func TestRenjuVCFPuzzleAvoidsTheFoul(t *testing.T) {
	free := renju
	free.Renju = false
	fb, star := diagramBoard(t, free, fourFourElsewhere)
	if win, m := vcfOf(fb); !win || m != star {
		t.Fatalf("freestyle: VCF %v at %v, want the double four %v\n%s", win, m, star, show(fb))
	}
	rb, _ := diagramBoard(t, renju, fourFourElsewhere)
	win, m := vcfOf(rb)
	if !win || m == star || rb.Foul(m) != NoFoul {
		t.Fatalf("renju: VCF %v at %v, want a win by an allowed four\n%s", win, m, show(rb))
	}
	// Hard plays it out as Black and wins, never through the foul.
	players := [2]Player{}
	for i := range players {
		players[i], _ = NewPlayerWith(Hard, Options{Rand: rand.New(rand.NewPCG(uint64(i), 6)), MaxNodes: 20_000, TTBytes: 1 << 20})
	}
	for n := 0; !rb.Over() && n < 8; n++ {
		m, err := players[rb.MoveCount()%2].Move(context.Background(), rb)
		if err != nil {
			t.Fatal(err)
		}
		if err := rb.Play(m); err != nil {
			t.Fatalf("%v played %v: %v\n%s", rb.ToMove(), m, err, show(rb))
		}
	}
	if o := rb.Outcome(); o.Status != Won || o.Winner != Black {
		t.Fatalf("outcome %+v, want Black to win\n%s", o, show(rb))
	}
}

// forcedFoul is a position with White to move where White's four
// (3,3) leaves Black one block, at *, which is a double three.
var forcedFoul = []string{
	"...............",
	"...............",
	"..X............",
	"...............",
	"....O..........",
	".....O.X.......",
	"......OX.......",
	".....XX*.......",
	"........X......",
	"...............",
}

func TestRenjuWhiteWinsByForcingAFoul(t *testing.T) {
	free := renju
	free.Renju = false
	fb, _ := diagramBoardFor(t, free, forcedFoul, White)
	if win, m := vcfOf(fb); win {
		t.Fatalf("freestyle: White VCF at %v, but Black can block\n%s", m, show(fb))
	}
	rb, star := diagramBoardFor(t, renju, forcedFoul, White)
	if f := rb.Foul(star); f != DoubleThree {
		t.Fatalf("Foul(%v) = %v, want double three\n%s", star, f, show(rb))
	}
	if win, m := vcfOf(rb); !win || m != (Point{3, 3}) {
		t.Fatalf("renju: White VCF %v at %v, want a win at (3,3)\n%s", win, m, show(rb))
	}
	// Hard plays it out as White against hard as Black.
	players := [2]Player{}
	for i := range players {
		players[i], _ = NewPlayerWith(Hard, Options{Rand: rand.New(rand.NewPCG(uint64(i), 5)), MaxNodes: 20_000, TTBytes: 1 << 20})
	}
	for n := 0; !rb.Over() && n < 6; n++ {
		side := 0
		if rb.ToMove() == White {
			side = 1
		}
		m, err := players[side].Move(context.Background(), rb)
		if err != nil {
			t.Fatal(err)
		}
		if err := rb.Play(m); err != nil {
			t.Fatalf("%v played %v: %v\n%s", rb.ToMove(), m, err, show(rb))
		}
	}
	if o := rb.Outcome(); o.Status != Won || o.Winner != White {
		t.Fatalf("outcome %+v, want White to win by the forced foul\n%s", o, show(rb))
	}
}

// foulOpenings start renju games with forbidden points for Black on the
// board or one move away: Black's open twos cross, White's first stones
// are far.
var foulOpenings = [][]Point{
	{{6, 7}, {3, 3}, {7, 7}, {11, 11}, {8, 5}, {3, 11}, {8, 6}, {11, 3}},
	{{7, 7}, {2, 12}, {8, 8}, {12, 2}, {7, 9}, {12, 12}},
	{{7, 7}, {7, 6}, {8, 8}, {6, 8}, {9, 7}, {2, 2}},
}

// TestRenjuEveryLevelAvoidsFouls plays seeded games on 15×15 renju between
// every pair of levels and checks that Black never chooses a forbidden
// point (Play would refuse it) and that fouls did stand in Black's way.
func TestRenjuEveryLevelAvoidsFouls(t *testing.T) {
	games := len(foulOpenings)
	if *long {
		games = 4 * len(foulOpenings)
	}
	faced := 0
	for _, bl := range Levels {
		for _, wl := range Levels {
			for g := range games {
				t.Run(fmt.Sprintf("%v-%v/%d", bl, wl, g), func(t *testing.T) {
					seed := uint64(g)
					var players [2]Player
					for i, l := range []Level{bl, wl} {
						players[i], _ = NewPlayerWith(l, Options{Rand: rand.New(rand.NewPCG(seed, uint64(i))), MaxNodes: 3_000, TTBytes: 1 << 20})
					}
					b := mustPlay(t, renju, foulOpenings[g%len(foulOpenings)]...)
					for !b.Over() {
						side := 0
						if b.ToMove() == White {
							side = 1
						}
						m, err := players[side].Move(context.Background(), b)
						if err != nil {
							t.Fatal(err)
						}
						if b.ToMove() == Black {
							if f := b.Foul(m); f != NoFoul {
								t.Fatalf("%v as Black chose %v, a %v\n%s", []Level{bl, wl}[side], m, f, show(b))
							}
							if len(b.Fouls()) > 0 {
								faced++
							}
						}
						if err := b.Play(m); err != nil {
							t.Fatalf("illegal %v: %v\n%s", m, err, show(b))
						}
					}
				})
			}
		}
	}
	t.Logf("Black moved %d times with forbidden points on the board", faced)
	if faced == 0 {
		t.Error("no game put a forbidden point before Black: the test proves nothing")
	}
}
