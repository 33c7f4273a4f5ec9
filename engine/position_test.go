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
	hash           uint64
	side           uint8
	box            [4]int
	stack          []int32
	changes, marks int
}

func stateOf(p *pos) posState {
	st := posState{cells: slices.Clone(p.cells), near: slices.Clone(p.near), score: p.score, levels: p.levels,
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
				if !reflect.DeepEqual(fresh.pat, p.pat) || fresh.score != p.score || fresh.levels != p.levels {
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

// TestThreatValuesOf checks which threat values each rule's leaves use:
// one table for both sides in freestyle, one for each side under renju,
// none for exact five or on small boards.
func TestThreatValuesOf(t *testing.T) {
	of := func(r Rules) [2]*[numMasks]int32 { return threatValuesOf(newPos(mustPlay(t, r))) }
	if tv := of(Rules{15, 15, 5, false, false}); tv[0] != &threatValuesFreestyle || tv[1] != &threatValuesFreestyle {
		t.Error("freestyle: not the freestyle table for both sides")
	}
	tv := of(Rules{15, 15, 5, false, true})
	if tv[0] == nil || tv[1] == nil || &tv[0][0] != &threatValuesRenju[0] || &tv[1][0] != &threatValuesRenju[numMasks] {
		t.Error("renju: not Black's and White's halves of the renju table")
	}
	for _, r := range []Rules{{15, 15, 5, true, false}, {7, 7, 4, false, false}} {
		if tv := of(r); tv[0] != nil || tv[1] != nil {
			t.Errorf("%+v: threat values %v, want none", r, tv)
		}
	}
}
