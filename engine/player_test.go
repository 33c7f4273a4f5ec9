package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// value is an independent plain negamax for the side to move: +1 win, 0
// draw, -1 loss. It checks the solver under test and is slow on purpose.
func value(b *Board) int {
	switch b.Outcome().Status {
	case Won:
		return -1
	case Draw:
		return 0
	}
	best := -1
	for _, p := range b.LegalMoves() {
		_ = b.Play(p)
		best = max(best, -value(b))
		_ = b.Undo()
	}
	return best
}

// walk plays every sequence of opponent replies against ai on b, the AI
// playing side me, and calls check on every finished game.
func walk(t *testing.T, ai Player, b *Board, me Stone, check func(*Board)) {
	t.Helper()
	if b.Over() {
		check(b)
		return
	}
	if b.ToMove() == me {
		wasWinning := value(b.Clone()) == 1
		p, err := ai.Move(context.Background(), b)
		if err != nil {
			t.Fatalf("AI move: %v\n%s", err, show(b))
		}
		if err := b.Play(p); err != nil {
			t.Fatalf("AI played illegal %v: %v\n%s", p, err, show(b))
		}
		if wasWinning && value(b.Clone()) != -1 {
			t.Fatalf("AI let a won position go with %v:\n%s", p, show(b))
		}
		walk(t, ai, b, me, check)
		_ = b.Undo()
		return
	}
	for _, p := range b.LegalMoves() {
		_ = b.Play(p)
		walk(t, ai, b, me, check)
		_ = b.Undo()
	}
}

func TestHardNeverLosesTicTacToe(t *testing.T) {
	for _, me := range []Stone{Black, White} {
		for seed := uint64(1); seed <= 3; seed++ {
			ai, _ := NewPlayer(Hard, rand.New(rand.NewPCG(seed, 0)))
			b, _ := NewBoard(TicTacToe())
			games, wins := 0, 0
			walk(t, ai, b, me, func(end *Board) {
				games++
				o := end.Outcome()
				if o.Status == Won && o.Winner != me {
					t.Fatalf("hard as %v lost (seed %d):\n%s", me, seed, show(end))
				}
				if o.Status == Won {
					wins++
				}
			})
			if games == 0 || wins == 0 {
				t.Fatalf("hard as %v: %d games, %d wins: the walk explored nothing", me, games, wins)
			}
			t.Logf("hard as %v, seed %d: %d games, %d won, none lost", me, seed, games, wins)
		}
	}
}

func TestHardTakesImmediateWin(t *testing.T) {
	// X X . / O O . / . . . with X to move: X must win at (2,0) rather than
	// block or win later.
	b := mustPlay(t, TicTacToe(), Point{0, 0}, Point{0, 1}, Point{1, 0}, Point{1, 1})
	for seed := uint64(0); seed < 20; seed++ {
		ai, _ := NewPlayer(Hard, rand.New(rand.NewPCG(seed, 1)))
		if p, _ := ai.Move(context.Background(), b); p != (Point{2, 0}) {
			t.Fatalf("seed %d: hard played %v, want the win at {2 0}", seed, p)
		}
	}
}

func TestMediumWinsThenBlocks(t *testing.T) {
	r := Rules{7, 7, 5, false, false}
	// Black has four in row 0 (0..3); white has four in row 6 (0..3); black
	// to move wins at (4,0).
	win := mustPlay(t, r, Point{0, 0}, Point{0, 6}, Point{1, 0}, Point{1, 6}, Point{2, 0}, Point{2, 6}, Point{3, 0}, Point{3, 6})
	// Black has three, white four: black must block at (4,6).
	block := mustPlay(t, r, Point{0, 0}, Point{0, 6}, Point{1, 0}, Point{1, 6}, Point{2, 0}, Point{2, 6}, Point{6, 3}, Point{3, 6})
	for _, level := range []Level{Medium, Hard} {
		for seed := uint64(0); seed < 10; seed++ {
			ai, _ := NewPlayer(level, rand.New(rand.NewPCG(seed, 2)))
			if p, _ := ai.Move(context.Background(), win); p != (Point{4, 0}) {
				t.Errorf("%v seed %d: played %v, want win at {4 0}\n%s", level, seed, p, show(win))
			}
			if p, _ := ai.Move(context.Background(), block); p != (Point{4, 6}) {
				t.Errorf("%v seed %d: played %v, want block at {4 6}\n%s", level, seed, p, show(block))
			}
		}
	}
}

func TestPlayersLeaveBoardAndAreReproducible(t *testing.T) {
	for _, r := range []Rules{TicTacToe(), {15, 15, 5, false, false}} {
		for _, level := range Levels {
			b := mustPlay(t, r, Point{1, 1}, Point{0, 0}, Point{2, 2})
			before := show(b)
			// A node budget makes hard reproducible; a time budget would not.
			a, _ := NewPlayerWith(level, Options{Rand: rand.New(rand.NewPCG(42, 7)), MaxNodes: 20_000})
			c, _ := NewPlayerWith(level, Options{Rand: rand.New(rand.NewPCG(42, 7)), MaxNodes: 20_000})
			pa, err := a.Move(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			pc, _ := c.Move(context.Background(), b)
			if pa != pc {
				t.Errorf("%v on %v: same seed gave %v and %v", level, r, pa, pc)
			}
			if !b.Legal(pa) {
				t.Errorf("%v on %v: illegal move %v", level, r, pa)
			}
			if show(b) != before || b.MoveCount() != 3 {
				t.Errorf("%v changed the board:\n%s", level, show(b))
			}
		}
	}
}

func TestPlayerRefusesFinishedGameAndCancelledContext(t *testing.T) {
	won := mustPlay(t, TicTacToe(), Point{0, 0}, Point{0, 1}, Point{1, 0}, Point{1, 1}, Point{2, 0})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fresh, _ := NewBoard(TicTacToe())
	for _, level := range Levels {
		ai, _ := NewPlayer(level, rand.New(rand.NewPCG(1, 1)))
		if _, err := ai.Move(context.Background(), won); !errors.Is(err, ErrGameOver) {
			t.Errorf("%v on won board: %v", level, err)
		}
		if _, err := ai.Move(ctx, fresh); !errors.Is(err, context.Canceled) {
			t.Errorf("%v with cancelled ctx: %v", level, err)
		}
	}
	if _, err := NewPlayer(Level(9), nil); !errors.Is(err, ErrBadLevel) {
		t.Errorf("NewPlayer(9) = %v", err)
	}
}

func TestParseLevel(t *testing.T) {
	for _, l := range Levels {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l, got, err)
		}
	}
	if _, err := ParseLevel("insane"); !errors.Is(err, ErrBadLevel) {
		t.Errorf("ParseLevel(insane) = %v", err)
	}
}

func TestEveryLevelFinishesGamesOnManyRules(t *testing.T) {
	rules := []Rules{
		{5, 5, 4, false, false}, {6, 5, 3, false, false}, {8, 6, 5, true, false}, {10, 10, 6, false, false},
		{12, 9, 7, true, false}, {15, 15, 3, false, false}, {19, 19, 5, true, false}, {4, 3, 3, false, false},
		{9, 9, 5, false, true}, {15, 15, 5, false, true},
	}
	for i, r := range rules {
		for _, l := range Levels {
			players := [2]Player{}
			for s := range players {
				players[s], _ = NewPlayerWith(l, Options{Rand: rand.New(rand.NewPCG(uint64(i), uint64(s))), MaxNodes: 2_000, TTBytes: 1 << 20})
			}
			b, _ := NewBoard(r)
			for !b.Over() {
				before := show(b)
				p, err := players[b.MoveCount()%2].Move(context.Background(), b)
				if err != nil {
					t.Fatalf("%v %v: %v\n%s", r, l, err, before)
				}
				if show(b) != before {
					t.Fatalf("%v %v changed the board", r, l)
				}
				if err := b.Play(p); err != nil {
					t.Fatalf("%v %v: illegal %v: %v\n%s", r, l, p, err, before)
				}
			}
		}
	}
}
