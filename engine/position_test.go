package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// posState is a deep copy of what play changes in a pos.
type posState struct {
	cells          []uint8
	key            [2][4][]uint64
	pat            [2][][4]uint8
	combo          [2][]uint16
	near           []uint8
	score          [2]int32
	levels         [2]levelCounts
	builds         [2]buildCounts
	hash           uint64
	side           uint8
	box            [4]int
	stack          []int32
	changes, marks int
}

func stateOf(p *pos) posState {
	st := posState{cells: slices.Clone(p.cells), near: slices.Clone(p.near), score: p.score, levels: p.levels, builds: p.builds,
		hash: p.hash, side: p.side, box: p.box, stack: append([]int32{}, p.stack...), changes: len(p.changes), marks: len(p.marks)}
	for s := range 2 {
		st.pat[s] = slices.Clone(p.pat[s])
		st.combo[s] = slices.Clone(p.combo[s])
		for d := range 4 {
			st.key[s][d] = slices.Clone(p.key[s][d])
		}
	}
	return st
}

// TestUndoRestoresPosition plays seeded random games under each gomoku
// rule and, at every position, a few more random stones that it then
// takes back one by one: after each undo the position must equal, field
// by field, what it was before that stone, and the patterns must equal a
// fresh position built from the same stones.
func TestUndoRestoresPosition(t *testing.T) {
	for name, r := range fourRules {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(31, 7))
			randomGames(t, r, rng, 20, 20, func(game, ply int, p *pos, ms []move, th threats) {
				var before []posState
				for range 3 {
					empty := slices.DeleteFunc(slices.Clone(p.onBoard), func(i int32) bool { return p.cells[i] != cEmpty })
					if len(empty) == 0 {
						break
					}
					before = append(before, stateOf(p))
					p.play(int(empty[rng.IntN(len(empty))]))
				}
				b, _ := NewBoard(r)
				fresh := newPos(b)
				for _, i := range p.stack {
					fresh.play(int(i))
				}
				if !reflect.DeepEqual(fresh.pat, p.pat) || fresh.score != p.score || fresh.levels != p.levels || fresh.builds != p.builds {
					t.Fatalf("game %d ply %d: patterns differ from a position built afresh", game, ply)
				}
				for k := len(before) - 1; k >= 0; k-- {
					p.undo()
					if got := stateOf(p); !reflect.DeepEqual(got, before[k]) {
						t.Fatalf("game %d ply %d: undo of stone %d did not restore the position", game, ply, k+1)
					}
				}
			})
		})
	}
}

// TestScoreIsTheSumOfTheEmptyCells plays seeded random games under each
// rule and checks that the running line potential of each side is the
// sum of its empty cells' pattern weights, less Black's fouls under renju.
func TestScoreIsTheSumOfTheEmptyCells(t *testing.T) {
	for name, r := range fourRules {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(31, 9))
			randomGames(t, r, rng, 10, 40, func(game, ply int, p *pos, ms []move, th threats) {
				var sum [2]int32
				for _, i := range p.onBoard {
					if p.cells[i] != cEmpty {
						continue
					}
					for si := range 2 {
						var cell int32
						var n [numPats]int
						for d := range 4 {
							cell += leafWeight[p.pat[si][i][d]]
							n[p.pat[si][i][d]]++
						}
						// Under renju Black's double threes and
						// four-fours add nothing.
						if r.Renju && si == 0 && n[patFive] == 0 && (n[patFour]+n[patFourO] >= 2 || n[patThreeO] >= 2) {
							cell = 0
						}
						sum[si] += cell
					}
				}
				if sum != p.score {
					t.Fatalf("game %d ply %d: scores %v, the empty cells add up to %v", game, ply, p.score, sum)
				}
			})
		})
	}
}

// TestThreatMask checks the threat mask's bits on a position where one
// side has an open three and the other a two.
func TestThreatMask(t *testing.T) {
	r := Rules{Width: 15, Height: 15, K: 5}
	// Black: an open three on row 7. White: two stones apart on row 2, an
	// open two with room on both sides.
	black := []Point{{6, 7}, {7, 7}, {8, 7}}
	white := []Point{{5, 2}, {7, 2}}
	b, err := Setup(r, black, white)
	if err != nil {
		t.Fatal(err)
	}
	p := newPos(b) // White to move
	got := p.threatMask()
	for _, c := range []struct {
		bit  int
		want bool
		what string
	}{
		{maskOppFlex, true, "Black's open three"},
		{maskOppFour, true, "Black's four (a broken one, 4,7 or 10,7)"},
		{maskOwnThree, true, "White's open three to make (6,2)"},
		{maskOwnFour | maskOwnFour3 | maskOwnDouble3, false, "a four or double three of White's"},
		{maskOppDouble3, false, "a double three of Black's"},
	} {
		if has := got&c.bit != 0; has != c.want {
			t.Errorf("mask %09b: %s is %v, want %v", got, c.what, has, c.want)
		}
	}
}

// TestComboBuilds checks the build-up of some sets of four line
// patterns.
func TestComboBuilds(t *testing.T) {
	for _, c := range []struct {
		pats [4]uint8
		want int
	}{
		{[4]uint8{patTwoO, patTwoO, patOne, patDead}, bTwos},
		{[4]uint8{patTwoO, patTwo, patTwo, patOne}, bNone},
		{[4]uint8{patThree, patTwoO, patDead, patDead}, bThreePlus},
		{[4]uint8{patThree, patThree, patDead, patDead}, bThreePlus},
		{[4]uint8{patThree, patTwo, patTwo, patDead}, bNone},
		{[4]uint8{patThreeO, patTwoO, patDead, patDead}, bOpenThreePlus},
		{[4]uint8{patThreeO, patThree, patDead, patDead}, bOpenThreePlus},
		{[4]uint8{patThreeO, patTwo, patOne, patDead}, bNone},
		{[4]uint8{patThreeO, patThreeO, patTwoO, patDead}, bNone}, // a double three
		{[4]uint8{patFour, patTwoO, patDead, patDead}, bFourPlus},
		{[4]uint8{patFour, patThree, patDead, patDead}, bFourPlus},
		{[4]uint8{patFour, patThreeO, patDead, patDead}, bNone}, // a four-three
		{[4]uint8{patFour, patTwo, patDead, patDead}, bNone},
	} {
		i := 0
		for d, pt := range c.pats {
			i += int(pt) * int(comboWeight[d])
		}
		if got := int(comboBuilds[i]); got != c.want {
			t.Errorf("patterns %v: build-up %d, want %d", c.pats, got, c.want)
		}
	}
}

// TestBuildMask checks the build-up mask's bits on a position where the
// side to move can make two open twos with one stone and the other side
// nothing.
func TestBuildMask(t *testing.T) {
	r := Rules{Width: 15, Height: 15, K: 5}
	// Black: two stones a knight's move apart; a stone on 7,7 makes an
	// open two on row 7 and on column 7. White: two corners.
	b, err := Setup(r, []Point{{6, 7}, {7, 6}}, []Point{{0, 0}, {14, 14}})
	if err != nil {
		t.Fatal(err)
	}
	p := newPos(b) // Black to move
	if got, want := p.buildMask(), 1<<(bTwos-1); got != want {
		t.Errorf("mask %08b, want %08b: Black's two open twos only", got, want)
	}
	p.play(p.index(3, 3)) // White to move: now the bits are the opponent's
	if got, want := p.buildMask(), 1<<(numBuilds-2+bTwos); got != want {
		t.Errorf("mask %08b after a move, want %08b", got, want)
	}
}

// TestThreatValuesOf checks which threat and build-up values each rule's
// leaves use: one table of each for both sides in freestyle, a threat
// table for each side under renju, none for exact five or on small
// boards; and that positions keep the build-up counts only in freestyle.
func TestThreatValuesOf(t *testing.T) {
	of := func(r Rules) ([2]*[numMasks]int32, [2]*[numBuildMasks]int32) {
		return threatValuesOf(newPos(mustPlay(t, r)))
	}
	tv, bv := of(Rules{15, 15, 5, false, false})
	if tv[0] != &threatValuesFreestyle || tv[1] != &threatValuesFreestyle {
		t.Error("freestyle: not the freestyle table for both sides")
	}
	if bv[0] != &buildValuesFreestyle || bv[1] != &buildValuesFreestyle {
		t.Error("freestyle: not the freestyle build-up values for both sides")
	}
	tv, bv = of(Rules{15, 15, 5, false, true})
	if tv[0] == nil || tv[1] == nil || &tv[0][0] != &threatValuesRenju[0] || &tv[1][0] != &threatValuesRenju[numMasks] {
		t.Error("renju: not Black's and White's halves of the renju table")
	}
	if bv[0] != nil || bv[1] != nil {
		t.Error("renju: build-up values, want none")
	}
	for _, r := range []Rules{{15, 15, 5, true, false}, {7, 7, 4, false, false}} {
		if tv, bv := of(r); tv[0] != nil || tv[1] != nil || bv[0] != nil || bv[1] != nil {
			t.Errorf("%+v: threat values %v and build-up values %v, want none", r, tv, bv)
		}
	}
	// The position keeps the build-up counts where the leaf reads them.
	for _, c := range []struct {
		r    Rules
		keep bool
	}{{Rules{15, 15, 5, false, false}, true}, {Rules{15, 15, 5, false, true}, false}, {Rules{15, 15, 5, true, false}, false}, {Rules{7, 7, 4, false, false}, false}} {
		if p := newPos(mustPlay(t, c.r)); p.keepBuilds != c.keep {
			t.Errorf("%+v: build-up counts kept %v, want %v", c.r, p.keepBuilds, c.keep)
		}
	}
}
