package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// show draws a board for failure messages: X black, O white, . empty.
func show(b *Board) string {
	var sb strings.Builder
	r := b.Rules()
	for y := 0; y < r.Height; y++ {
		for x := 0; x < r.Width; x++ {
			sb.WriteByte(".XO"[b.At(Point{x, y})])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// mustPlay replays moves from an empty board of rules r.
func mustPlay(t *testing.T, r Rules, moves ...Point) *Board {
	t.Helper()
	b, err := Replay(r, moves)
	if err != nil {
		t.Fatalf("replay %v: %v", moves, err)
	}
	return b
}

func TestRulesValidate(t *testing.T) {
	tests := []struct {
		r  Rules
		ok bool
	}{
		{Rules{3, 3, 3, false, false}, true},
		{Rules{19, 19, 5, true, false}, true},
		{Rules{19, 3, 3, false, false}, true},
		{Rules{2, 3, 3, false, false}, false},
		{Rules{20, 19, 5, false, false}, false},
		{Rules{5, 4, 5, false, false}, false},
		{Rules{5, 5, 2, false, false}, false},
		{Rules{0, 0, 0, false, false}, false},
	}
	for _, tt := range tests {
		err := tt.r.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("%+v.Validate() = %v, want ok=%v", tt.r, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrBadRules) {
			t.Errorf("%+v.Validate() = %v, want ErrBadRules", tt.r, err)
		}
	}
}

func TestPresets(t *testing.T) {
	for _, name := range PresetNames() {
		r, ok := Preset(name)
		if !ok || r.Validate() != nil {
			t.Fatalf("preset %q = %+v, %v", name, r, ok)
		}
		if r.String() != name {
			t.Errorf("Preset(%q).String() = %q", name, r.String())
		}
	}
	if _, ok := Preset("9x9"); ok {
		t.Error("9x9 is not a preset")
	}
	if s := (Rules{6, 5, 4, true, false}).String(); s != "6x5 k4 exact" {
		t.Errorf("String() = %q", s)
	}
}

// lineGame plays black along the line from start in direction d, with white
// answering far away on the given spare cells, and returns the board after
// black's n-th stone.
func lineGame(t *testing.T, r Rules, start, d Point, n int, spare []Point) *Board {
	t.Helper()
	var moves []Point
	for i := 0; i < n; i++ {
		moves = append(moves, Point{start.X + i*d.X, start.Y + i*d.Y})
		if i < n-1 {
			moves = append(moves, spare[i])
		}
	}
	return mustPlay(t, r, moves...)
}

func TestEveryDirectionWins(t *testing.T) {
	sizes := []Rules{{3, 3, 3, false, false}, {7, 7, 5, false, false}, {15, 15, 5, false, false}, {8, 5, 4, false, false}, {19, 19, 5, true, false}}
	for _, r := range sizes {
		for _, d := range directions {
			start := Point{0, 0}
			if d.Y < 0 {
				start = Point{0, r.K - 1}
			}
			// White's K-1 stones go on cells off black's line, from the
			// far end of the board: too few to make a line of their own.
			var spare []Point
			for i := r.Cells() - 1; i >= 0 && len(spare) < r.K-1; i-- {
				p := Point{i % r.Width, i / r.Width}
				dx, dy := p.X-start.X, p.Y-start.Y
				onLine := false
				for j := 0; j < r.K; j++ {
					onLine = onLine || (dx == j*d.X && dy == j*d.Y)
				}
				if !onLine {
					spare = append(spare, p)
				}
			}
			name := fmt.Sprintf("%v/dir%v", r, d)
			t.Run(name, func(t *testing.T) {
				b := lineGame(t, r, start, d, r.K-1, spare)
				if b.Over() {
					t.Fatalf("over after %d stones:\n%s", r.K-1, show(b))
				}
				last := Point{start.X + (r.K-1)*d.X, start.Y + (r.K-1)*d.Y}
				if err := b.Play(spare[r.K-2]); err != nil {
					t.Fatal(err)
				}
				if err := b.Play(last); err != nil {
					t.Fatal(err)
				}
				o := b.Outcome()
				if o.Status != Won || o.Winner != Black || len(o.Line) != r.K {
					t.Fatalf("outcome %+v, want black win with %d cells:\n%s", o, r.K, show(b))
				}
				for i, p := range o.Line {
					want := Point{start.X + i*d.X, start.Y + i*d.Y}
					if !slices.Contains(o.Line, want) {
						t.Errorf("line %v lacks %v", o.Line, want)
					}
					if b.At(p) != Black {
						t.Errorf("line cell %v is %v", p, b.At(p))
					}
				}
			})
		}
	}
}

func TestWinCompletedInTheMiddle(t *testing.T) {
	// K=4 on a 6-wide board: X X _ X, then X fills the gap.
	r := Rules{6, 4, 4, false, false}
	b := mustPlay(t, r, Point{0, 0}, Point{0, 3}, Point{1, 0}, Point{1, 3}, Point{3, 0}, Point{5, 3}, Point{2, 0})
	o := b.Outcome()
	want := []Point{{0, 0}, {1, 0}, {2, 0}, {3, 0}}
	if o.Status != Won || !slices.Equal(o.Line, want) {
		t.Fatalf("outcome %+v, want line %v:\n%s", o, want, show(b))
	}
}

func TestOverlineFreestyleAndExact(t *testing.T) {
	// Black: 0,1,2, 4,5 on row 0; then 3 makes six in a row.
	moves := []Point{{0, 0}, {0, 5}, {1, 0}, {1, 5}, {2, 0}, {2, 5}, {4, 0}, {4, 5}, {5, 0}, {6, 6}, {3, 0}}
	free := mustPlay(t, Rules{15, 15, 5, false, false}, moves...)
	if o := free.Outcome(); o.Status != Won || len(o.Line) != 6 {
		t.Errorf("freestyle: six in a row should win with a 6-cell line, got %+v:\n%s", o, show(free))
	}
	exact := mustPlay(t, Rules{15, 15, 5, true, false}, moves...)
	if o := exact.Outcome(); o.Status != Ongoing {
		t.Errorf("exact: six in a row must not win, got %+v:\n%s", o, show(exact))
	}
	// Exactly five still wins under exact rules.
	five := mustPlay(t, Rules{15, 15, 5, true, false}, Point{0, 0}, Point{0, 5}, Point{1, 0}, Point{1, 5}, Point{2, 0}, Point{2, 5}, Point{3, 0}, Point{3, 5}, Point{4, 0})
	if o := five.Outcome(); o.Status != Won || len(o.Line) != 5 {
		t.Errorf("exact: five should win, got %+v", o)
	}
}

func TestFullBoardDraw(t *testing.T) {
	// X O X / X O O / O X X: no line.
	b := mustPlay(t, TicTacToe(), Point{0, 0}, Point{1, 0}, Point{2, 0}, Point{1, 1}, Point{0, 1}, Point{0, 2}, Point{1, 2}, Point{2, 1}, Point{2, 2})
	if o := b.Outcome(); o.Status != Draw || o.Winner != Empty || o.Line != nil {
		t.Fatalf("outcome %+v, want draw:\n%s", o, show(b))
	}
	if b.LegalMoves() != nil {
		t.Error("a drawn board has no legal moves")
	}
}

func TestIllegalMovesChangeNothing(t *testing.T) {
	b := mustPlay(t, TicTacToe(), Point{1, 1})
	before := show(b)
	for _, tt := range []struct {
		p    Point
		want error
	}{
		{Point{1, 1}, ErrOccupied},
		{Point{3, 0}, ErrOffBoard},
		{Point{-1, 2}, ErrOffBoard},
	} {
		if err := b.Play(tt.p); !errors.Is(err, tt.want) {
			t.Errorf("Play(%v) = %v, want %v", tt.p, err, tt.want)
		}
	}
	if show(b) != before || b.MoveCount() != 1 {
		t.Errorf("board changed:\n%s", show(b))
	}
	won := mustPlay(t, TicTacToe(), Point{0, 0}, Point{0, 1}, Point{1, 0}, Point{1, 1}, Point{2, 0})
	if err := won.Play(Point{2, 2}); !errors.Is(err, ErrGameOver) {
		t.Errorf("Play after win = %v, want ErrGameOver", err)
	}
}

func TestCloneAndUndoAreIndependent(t *testing.T) {
	b := mustPlay(t, TicTacToe(), Point{0, 0}, Point{1, 1})
	c := b.Clone()
	if err := c.Play(Point{2, 2}); err != nil {
		t.Fatal(err)
	}
	if b.At(Point{2, 2}) != Empty || b.MoveCount() != 2 {
		t.Fatalf("clone shares cells with the original:\n%s", show(b))
	}
	if err := c.Undo(); err != nil || show(c) != show(b) {
		t.Fatalf("undo: %v\n%s", err, show(c))
	}
	empty, _ := NewBoard(TicTacToe())
	if err := empty.Undo(); !errors.Is(err, ErrNoMoves) {
		t.Errorf("Undo on empty = %v", err)
	}
	moves := b.Moves()
	moves[0] = Point{2, 2}
	if b.Moves()[0] != (Point{0, 0}) {
		t.Error("Moves returned the board's own slice")
	}
}

func TestParseMoves(t *testing.T) {
	got, err := ParseMoves(" 7,7 8,9\t10,0 ")
	if want := []Point{{7, 7}, {8, 9}, {10, 0}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ParseMoves = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"7,7 8", "7,x", "7;7", "1,2,3"} {
		if _, err := ParseMoves(bad); err == nil {
			t.Errorf("ParseMoves(%q) gave no error", bad)
		}
	}
}
