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
// sum of its empty cells' values: in freestyle and renju five in a row on
// open boards the learned value of the cell's class (renju's for each
// colour), elsewhere the pattern weights, less Black's fouls under renju.
func TestScoreIsTheSumOfTheEmptyCells(t *testing.T) {
	for name, r := range fourRules {
		t.Run(name, func(t *testing.T) {
			learned := r.K == 5 && !r.Exact && min(r.Width, r.Height) >= openBoard
			value := func(si int, pats [4]uint8) int32 {
				var cell int32
				var n [numPats]int
				for _, pt := range pats {
					cell += leafWeight[pt]
					n[pt]++
				}
				slices.Sort(pats[:])
				class := cellClass[int(pats[0])+int(pats[1])*numPats+int(pats[2])*numPats*numPats+int(pats[3])*numPats*numPats*numPats]
				switch {
				case learned && r.Renju:
					return cellValuesRenju[si*numCellClasses+int(class)]
				case learned:
					return cellValuesFreestyle[class]
				case r.Renju && si == 0 && n[patFive] == 0 && (n[patFour]+n[patFourO] >= 2 || n[patThreeO] >= 2):
					// Under renju Black's double threes and four-fours
					// add nothing.
					return 0
				}
				return cell
			}
			rng := rand.New(rand.NewPCG(31, 9))
			randomGames(t, r, rng, 10, 40, func(game, ply int, p *pos, ms []move, th threats) {
				var sum [2]int32
				for _, i := range p.onBoard {
					if p.cells[i] != cEmpty {
						continue
					}
					for si := range 2 {
						sum[si] += value(si, p.pat[si][i])
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

// TestCellClass checks the cell classes: numCellClasses of them, numbered
// from 0 in lexicographic order of the sorted patterns, the same for two
// combo indexes exactly when their patterns are the same multiset, and
// the combo tables read their class's value.
func TestCellClass(t *testing.T) {
	sorted := func(i int) [4]uint8 {
		var ps [4]uint8
		for d, x := 0, i; d < 4; d, x = d+1, x/numPats {
			ps[d] = uint8(x % numPats)
		}
		slices.Sort(ps[:])
		return ps
	}
	of := map[uint16][4]uint8{}
	for i, c := range cellClass {
		ps := sorted(i)
		if seen, ok := of[c]; ok && seen != ps {
			t.Fatalf("class %d holds %v and %v", c, seen, ps)
		}
		of[c] = ps
	}
	if len(of) != numCellClasses {
		t.Fatalf("%d classes, want %d", len(of), numCellClasses)
	}
	for c := range uint16(numCellClasses) {
		ps, ok := of[c]
		if !ok {
			t.Fatalf("class %d unused", c)
		}
		if next, ok := of[c+1]; ok && slices.Compare(ps[:], next[:]) >= 0 {
			t.Errorf("class %d is %v, class %d %v: not in lexicographic order", c, ps, c+1, next)
		}
	}
	// A three on the third line reads the value of a three on the first.
	if got, want := comboCellsFreestyle[int(patThree)*int(comboWeight[2])], cellValuesFreestyle[cellClass[patThree]]; got != want {
		t.Errorf("a cell with a three on the third line reads %d, want its class's %d", got, want)
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

// TestLeafTablesOf checks which tables each rule's leaves use: one threat
// table, one build-up table and one cell table for both sides in
// freestyle, a threat table for each side to move and a cell table for
// each colour under renju, the leafWeight cell values and no masks'
// values for exact five or on small boards; and that
// positions read their cell values from those tables and keep the
// build-up counts only in freestyle.
func TestLeafTablesOf(t *testing.T) {
	same := func(a, b []int32) bool { return len(a) == len(b) && &a[0] == &b[0] }
	of := func(r Rules) leafTables { return leafTablesOf(newPos(mustPlay(t, r))) }
	lt := of(Rules{15, 15, 5, false, false})
	if lt.threats[0] != &threatValuesFreestyle || lt.threats[1] != &threatValuesFreestyle {
		t.Error("freestyle: not the freestyle table for both sides")
	}
	if lt.builds[0] != &buildValuesFreestyle || lt.builds[1] != &buildValuesFreestyle {
		t.Error("freestyle: not the freestyle build-up values for both sides")
	}
	if !same(lt.cells[0], comboCellsFreestyle) || !same(lt.cells[1], comboCellsFreestyle) {
		t.Error("freestyle: not the freestyle cell values for both sides")
	}
	lt = of(Rules{15, 15, 5, false, true})
	if lt.threats[0] == nil || lt.threats[1] == nil || &lt.threats[0][0] != &threatValuesRenju[0] || &lt.threats[1][0] != &threatValuesRenju[numMasks] {
		t.Error("renju: not Black's and White's halves of the renju table")
	}
	if lt.builds[0] != nil || lt.builds[1] != nil {
		t.Error("renju: build-up values, want none")
	}
	if !same(lt.cells[0], comboCellsRenjuBlack) || !same(lt.cells[1], comboCellsRenjuWhite) {
		t.Error("renju: not Black's and White's renju cell values")
	}
	for _, r := range []Rules{{15, 15, 5, true, false}, {7, 7, 4, false, false}} {
		lt := of(r)
		if lt.threats[0] != nil || lt.threats[1] != nil || lt.builds[0] != nil || lt.builds[1] != nil {
			t.Errorf("%+v: threat values %v and build-up values %v, want none", r, lt.threats, lt.builds)
		}
		if !same(lt.cells[0], comboLeaf) || !same(lt.cells[1], comboLeaf) {
			t.Errorf("%+v: not the leafWeight cell values", r)
		}
	}
	for _, r := range []Rules{{15, 15, 5, false, false}, {15, 15, 5, false, true}, {7, 7, 4, false, false}} {
		p, lt := newPos(mustPlay(t, r)), of(r)
		if !same(p.leaf.cells[0], lt.cells[0]) || !same(p.leaf.cells[1], lt.cells[1]) {
			t.Errorf("%+v: the position does not read the leaf's cell values", r)
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
