package session

import (
	"errors"
	"fmt"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// undoStep is one action of a takeback script: who does what, and what
// the game looks like after it.
type undoStep struct {
	who User
	// op is "play x,y", "undo", "accept", "decline", "resign", or
	// "stale" (an undo with an old move number).
	op      string
	wantErr error
	// moves is the number of moves on the board after the step; ask the
	// side whose request is pending.
	moves int
	ask   engine.Stone
}

// runUndoSteps plays steps on the game v and checks each.
func runUndoSteps(t *testing.T, s *Service, v View, steps []undoStep) View {
	t.Helper()
	for i, st := range steps {
		req := UndoRequest{Game: v.ID(), MoveNo: v.MoveNo()}
		var w View
		var err error
		var x, y int
		switch {
		case st.op == "undo":
			w, err = s.Begin(ctx, Request{Actor: as(st.who)}).Undo(req)
		case st.op == "stale":
			req.MoveNo--
			w, err = s.Begin(ctx, Request{Actor: as(st.who)}).Undo(req)
		case st.op == "accept":
			w, err = s.Begin(ctx, Request{Actor: as(st.who)}).AcceptUndo(req)
		case st.op == "decline":
			w, err = s.Begin(ctx, Request{Actor: as(st.who)}).DeclineUndo(req)
		case st.op == "resign":
			w, err = s.Begin(ctx, Request{Actor: as(st.who)}).Resign(v.ID())
		default:
			if _, serr := fmt.Sscanf(st.op, "play %d,%d", &x, &y); serr != nil {
				t.Fatalf("step %d: bad op %q", i, st.op)
			}
			w, err = s.Begin(ctx, Request{Actor: as(st.who)}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: engine.Point{X: x, Y: y}})
		}
		if !errors.Is(err, st.wantErr) || (st.wantErr == nil && err != nil) {
			t.Fatalf("step %d: %s %s: %v, want %v", i, st.who.Name, st.op, err, st.wantErr)
		}
		if err == nil {
			v = w
		}
		// What the store holds, not just what was returned.
		got, gerr := s.Game(ctx, v.ID())
		if gerr != nil {
			t.Fatal(gerr)
		}
		if got.MoveNo() != st.moves || got.UndoAsk() != st.ask {
			t.Fatalf("step %d: %s %s: %d moves, request by %v; want %d, %v", i, st.who.Name, st.op, got.MoveNo(), got.UndoAsk(), st.moves, st.ask)
		}
		replayMatches(t, got)
		v = got
	}
	return v
}

func TestUndoAgainstTheAI(t *testing.T) {
	for _, tc := range []struct {
		name  string
		side  Side
		limit int
		steps []undoStep
		// takebacks is the game's count at the end.
		takebacks int
	}{
		{name: "first: the move and the reply go", side: First, takebacks: 2, steps: []undoStep{
			{who: alice, op: "undo", wantErr: ErrNoUndo},
			{who: alice, op: "play 1,1", moves: 2},
			{who: alice, op: "play 2,2", moves: 4},
			{who: alice, op: "undo", moves: 2},
			{who: alice, op: "undo", moves: 0},
			{who: alice, op: "undo", wantErr: ErrNoUndo},
		}},
		{name: "second: back to the AI's opening", side: Second, takebacks: 1, steps: []undoStep{
			{who: alice, op: "undo", wantErr: ErrNoUndo, moves: 1},
			{who: alice, op: "play 1,1", moves: 3},
			{who: alice, op: "undo", moves: 1},
		}},
		{name: "limit", side: First, limit: 1, takebacks: 1, steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 2},
			{who: alice, op: "undo", moves: 0},
			{who: alice, op: "play 1,1", moves: 2},
			{who: alice, op: "undo", wantErr: ErrUndoLimit, moves: 2},
		}},
		{name: "refusals", side: First, steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 2},
			{who: alice, op: "stale", wantErr: ErrStale, moves: 2},
			{who: bob, op: "undo", wantErr: ErrNotAPlayer, moves: 2},
			{who: alice, op: "accept", wantErr: ErrNoUndoRequest, moves: 2},
			{who: alice, op: "resign", moves: 2},
			{who: alice, op: "undo", wantErr: ErrGameOver, moves: 2},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := mustOpenStore(t)
			s := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Limits: Limits{UndosPerGame: tc.limit}})
			v := start(t, s, alice, engine.Hard, tc.side)
			v = runUndoSteps(t, s, v, tc.steps)
			if v.Takebacks() != tc.takebacks {
				t.Fatalf("%d takebacks, want %d", v.Takebacks(), tc.takebacks)
			}
		})
	}
}

func TestUndoInADuel(t *testing.T) {
	for _, tc := range []struct {
		name      string
		limit     int
		steps     []undoStep
		takebacks int
	}{
		{name: "accepted by button", takebacks: 1, steps: []undoStep{
			{who: alice, op: "undo", wantErr: ErrNoUndo},
			{who: alice, op: "play 1,1", moves: 1},
			{who: alice, op: "undo", moves: 1, ask: engine.Black},
			{who: alice, op: "undo", moves: 1, ask: engine.Black}, // asking twice changes nothing
			{who: alice, op: "accept", wantErr: ErrNoUndoRequest, moves: 1, ask: engine.Black},
			{who: bob, op: "accept", moves: 0},
			{who: bob, op: "accept", wantErr: ErrNoUndoRequest, moves: 0},
		}},
		{name: "accepted by typing /undo", takebacks: 1, steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 1},
			{who: bob, op: "play 0,0", moves: 2},
			{who: alice, op: "undo", moves: 2, ask: engine.Black},
			{who: bob, op: "undo", moves: 0}, // alice's move and bob's reply
		}},
		{name: "declined", steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 1},
			{who: bob, op: "play 0,0", moves: 2},
			{who: bob, op: "undo", moves: 2, ask: engine.White},
			{who: bob, op: "decline", wantErr: ErrNoUndoRequest, moves: 2, ask: engine.White},
			{who: carol, op: "decline", wantErr: ErrNotAPlayer, moves: 2, ask: engine.White},
			{who: alice, op: "decline", moves: 2},
			{who: alice, op: "play 2,2", moves: 3},
		}},
		{name: "a move withdraws the request", steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 1},
			{who: alice, op: "undo", moves: 1, ask: engine.Black},
			{who: bob, op: "play 0,0", moves: 2},
			{who: bob, op: "accept", wantErr: ErrNoUndoRequest, moves: 2},
			{who: alice, op: "stale", wantErr: ErrStale, moves: 2},
		}},
		{name: "limit", limit: 1, takebacks: 1, steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 1},
			{who: alice, op: "undo", moves: 1, ask: engine.Black},
			{who: bob, op: "accept", moves: 0},
			{who: alice, op: "play 1,1", moves: 1},
			{who: alice, op: "undo", wantErr: ErrUndoLimit, moves: 1},
		}},
		{name: "never after the end", steps: []undoStep{
			{who: alice, op: "play 1,1", moves: 1},
			{who: bob, op: "play 0,0", moves: 2},
			{who: alice, op: "undo", moves: 2, ask: engine.Black},
			{who: bob, op: "resign", moves: 2},
			{who: bob, op: "accept", wantErr: ErrGameOver, moves: 2},
			{who: alice, op: "undo", wantErr: ErrGameOver, moves: 2},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := mustOpenStore(t)
			s := newClockService(st, newClock(), 1, Config{Limits: Limits{UndosPerGame: tc.limit}})
			v, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(challenge(t, s, User{}).ID())
			if err != nil {
				t.Fatal(err)
			}
			v = runUndoSteps(t, s, v, tc.steps)
			if v.Takebacks() != tc.takebacks {
				t.Fatalf("%d takebacks, want %d", v.Takebacks(), tc.takebacks)
			}
		})
	}
}

// TestTakebacksAreMarkedInStats wins against hard with and without a
// takeback: both count in the stats, marked, but only the clean win puts
// the player on the /top hard board.
func TestTakebacksAreMarkedInStats(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer})
	win := func(u User, takeback bool) {
		t.Helper()
		v := start(t, s, u, engine.Hard, First)
		// firstLegal answers a1, then b1: the middle row wins.
		v = mustPlay(t, s, u, v, 0, 1)
		if takeback {
			var err error
			if v, err = s.Begin(ctx, Request{Actor: as(u)}).Undo(UndoRequest{Game: v.ID(), MoveNo: v.MoveNo()}); err != nil {
				t.Fatal(err)
			}
			v = mustPlay(t, s, u, v, 0, 1)
		}
		v = mustPlay(t, s, u, v, 1, 1)
		v = mustPlay(t, s, u, v, 2, 1)
		if v.Status() != Won || v.Winner() != engine.Black {
			t.Fatalf("%s did not win: %s", u.Name, v.Status())
		}
	}
	win(alice, true)
	a, _ := s.Stats(ctx, "test", alice.ID)
	if got := a.Result(engine.FamilyTicTacToe, VsHard); got != (Tally{Wins: 1, Takebacks: 1, TakebackWins: 1}) {
		t.Fatalf("alice's tally %+v", got)
	}
	if top, _ := turn(s, alice).Leaderboard(ByHardWins); len(top) != 0 {
		t.Fatalf("a win with takebacks is on /top hard: %+v", top)
	}
	win(alice, false)
	win(bob, false)
	top, _ := turn(s, alice).Leaderboard(ByHardWins)
	if len(top) != 2 || top[0].Rank != 1 || top[1].Rank != 1 || ByHardWins.Score(top[0].Stats) != 1 {
		t.Fatalf("/top hard: %+v", top)
	}
	// The marks survive the store.
	a, _ = s.Stats(ctx, "test", alice.ID)
	if got := a.Against(VsHard); got != (Tally{Wins: 2, Takebacks: 1, TakebackWins: 1}) {
		t.Fatalf("alice's tally against hard %+v", got)
	}
}
