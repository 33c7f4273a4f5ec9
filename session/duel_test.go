package session

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// challenge makes alice's challenge with the given opponent, alice black.
func challenge(t *testing.T, s *Service, opp User) View {
	t.Helper()
	v, err := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Opponent: opp, Side: First})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// winTopRow plays a running duel where black has the first move to a
// black win on the top row.
func winTopRow(t *testing.T, s *Service, v View) View {
	t.Helper()
	b, w := v.Seat(engine.Black).User, v.Seat(engine.White).User
	v = mustPlay(t, s, b, v, 0, 0)
	v = mustPlay(t, s, w, v, 0, 1)
	v = mustPlay(t, s, b, v, 1, 0)
	v = mustPlay(t, s, w, v, 1, 1)
	return mustPlay(t, s, b, v, 2, 0)
}

func TestOpenChallengeAcceptAndPlay(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	v := challenge(t, s, User{})
	if v.Status() != Open || v.Challenger() != engine.Black || v.Deadline().IsZero() {
		t.Fatalf("challenge: status %s challenger %v deadline %v", v.Status(), v.Challenger(), v.Deadline())
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: v.ID(), MoveNo: 0}); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("place on an open challenge: %v, want ErrNotStarted", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Accept(v.ID()); !errors.Is(err, ErrNotForYou) {
		t.Fatalf("accepting one's own challenge: %v, want ErrNotForYou", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Decline(v.ID()); !errors.Is(err, ErrNotForYou) {
		t.Fatalf("declining an open challenge: %v, want ErrNotForYou", err)
	}
	g, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID())
	if err != nil {
		t.Fatal(err)
	}
	if g.Status() != Running || g.SideOf(bob.ID) != engine.White || g.ID() != v.ID() {
		t.Fatalf("accepted: status %s, bob plays %v", g.Status(), g.SideOf(bob.ID))
	}
	// A doubled Accept returns the game; a late one is refused.
	if again, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID()); err != nil || again.Version() != g.Version() {
		t.Fatalf("doubled accept: version %d, %v", again.Version(), err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(carol)}).Accept(v.ID()); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("late accept: %v, want ErrNotOpen", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Place(PlaceRequest{Game: g.ID(), MoveNo: 0}); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("white first: %v, want ErrNotYourTurn", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(carol)}).Place(PlaceRequest{Game: g.ID(), MoveNo: 0}); !errors.Is(err, ErrNotAPlayer) {
		t.Fatalf("stranger: %v, want ErrNotAPlayer", err)
	}
	end := winTopRow(t, s, g)
	if end.Status() != Won || end.Winner() != engine.Black {
		t.Fatalf("status %s winner %v", end.Status(), end.Winner())
	}
	a, _ := s.Stats(ctx, "test", alice.ID)
	b, _ := s.Stats(ctx, "test", bob.ID)
	if a.Result(engine.FamilyTicTacToe, VsPeople) != (Tally{Wins: 1}) || b.Result(engine.FamilyTicTacToe, VsPeople) != (Tally{Losses: 1}) {
		t.Fatalf("stats: alice %+v bob %+v", a.Results, b.Results)
	}
	if a.Rating != 1216 || b.Rating != 1184 || a.Duels != 1 || b.Duels != 1 {
		t.Fatalf("ratings: alice %v bob %v, want 1216 and 1184", a.Rating, b.Rating)
	}
}

func TestAddressedChallenge(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	for _, opp := range []User{{Handle: "@BOB"}, {ID: bob.ID}} {
		v := challenge(t, s, opp)
		for _, try := range []struct {
			name string
			fn   func(*Turn, GameID) (View, error)
			who  User
		}{
			{"carol accepts", (*Turn).Accept, carol},
			{"carol declines", (*Turn).Decline, carol},
			{"alice declines", (*Turn).Decline, alice},
			{"bob cancels", (*Turn).Cancel, bob},
			{"carol cancels", (*Turn).Cancel, carol},
		} {
			if _, err := try.fn(turn(s, try.who), v.ID()); !errors.Is(err, ErrNotForYou) {
				t.Errorf("%v: %s: %v, want ErrNotForYou", opp, try.name, err)
			}
		}
		d, err := s.Begin(ctx, Request{Actor: as(bob)}).Decline(v.ID())
		if err != nil || d.Status() != Declined {
			t.Fatalf("%v: bob declines: %s, %v", opp, d.Status(), err)
		}
		if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID()); !errors.Is(err, ErrNotOpen) {
			t.Errorf("accept after decline: %v, want ErrNotOpen", err)
		}
		if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Cancel(v.ID()); !errors.Is(err, ErrNotOpen) {
			t.Errorf("cancel after decline: %v, want ErrNotOpen", err)
		}
		if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Rematch(v.ID()); !errors.Is(err, ErrNotStarted) {
			t.Errorf("rematch of a declined challenge: %v, want ErrNotStarted", err)
		}
	}
	v := challenge(t, s, User{Handle: "bob"})
	c, err := s.Begin(ctx, Request{Actor: as(alice)}).Cancel(v.ID())
	if err != nil || c.Status() != Cancelled {
		t.Fatalf("cancel: %s, %v", c.Status(), err)
	}
	if live, _ := s.Begin(ctx, Request{Actor: as(bob)}).Live(); len(live) != 0 {
		t.Fatalf("bob still sees %d live games", len(live))
	}
	for _, bad := range []ChallengeRequest{
		{Rules: engine.Rules{Width: 2, Height: 2, K: 2}},
		{Rules: engine.TicTacToe(), Opponent: alice},
		{Rules: engine.TicTacToe(), Opponent: User{Handle: "@ALICE"}},
		{Rules: engine.TicTacToe(), Side: 9},
	} {
		if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(bad); !errors.Is(err, ErrBadRequest) {
			t.Errorf("challenge %+v: %v, want ErrBadRequest", bad, err)
		}
	}
	// A name identifies nobody: a challenge to one is refused.
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Opponent: User{Name: "bob"}}); !errors.Is(err, ErrNameOnly) {
		t.Errorf("challenge to the name bob: %v, want ErrNameOnly", err)
	}
}

func TestRandomColours(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	seen := map[engine.Stone]bool{}
	for range 16 {
		v, err := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Side: RandomSide})
		if err != nil {
			t.Fatal(err)
		}
		seen[v.SideOf(alice.ID)] = true
		if v.Challenger() != v.SideOf(alice.ID) {
			t.Fatalf("challenger %v, alice plays %v", v.Challenger(), v.SideOf(alice.ID))
		}
	}
	if !seen[engine.Black] || !seen[engine.White] {
		t.Fatalf("16 random challenges gave colours %v", seen)
	}
	v, _ := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Side: Second})
	g, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID())
	if err != nil || g.SideOf(alice.ID) != engine.White || g.SideOf(bob.ID) != engine.Black {
		t.Fatalf("second: alice %v bob %v, %v", g.SideOf(alice.ID), g.SideOf(bob.ID), err)
	}
}

func TestChallengeLapses(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	var expired []View
	s := newClockService(st, c, 1, Config{OnExpire: func(v View) { expired = append(expired, v) }})
	v := challenge(t, s, User{})
	w := challenge(t, s, User{})
	c.Advance(DefaultChallengeTTL - time.Second)
	if n, err := s.Sweep(ctx); n != 0 || err != nil {
		t.Fatalf("sweep before the deadline: %d, %v", n, err)
	}
	c.Advance(time.Second)
	// An action at the deadline finds the challenge lapsed.
	got, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID())
	if !errors.Is(err, ErrExpired) || got.Status() != Lapsed || got.ID() != v.ID() {
		t.Fatalf("accept at the deadline: %s, %v; want Lapsed and ErrExpired", got.Status(), err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID()); !errors.Is(err, ErrExpired) {
		t.Fatalf("accept a lapsed challenge: %v, want ErrExpired", err)
	}
	// The sweeper ends the other one and reports it.
	if n, err := s.Sweep(ctx); n != 1 || err != nil {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if len(expired) != 1 || expired[0].ID() != w.ID() || expired[0].Status() != Lapsed {
		t.Fatalf("reported %v", expired)
	}
	if n, _ := s.Sweep(ctx); n != 0 {
		t.Fatalf("second sweep ended %d more", n)
	}
	if live, _ := s.Begin(ctx, Request{Actor: as(bob)}).Live(); len(live) != 0 {
		t.Fatalf("%d live games after the sweep", len(live))
	}
}

func TestTurnLimitAndIdleExpiry(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	var expired []View
	s := newClockService(st, c, 1, Config{TurnLimit: 30 * time.Minute, OnExpire: func(v View) { expired = append(expired, v) }})
	d, _ := s.Begin(ctx, Request{Actor: as(bob)}).Accept(challenge(t, s, User{}).ID())
	d = mustPlay(t, s, alice, d, 1, 1)
	ai := start(t, s, carol, engine.Easy, First)
	c.Advance(29 * time.Minute)
	d = mustPlay(t, s, bob, d, 0, 0) // a move restarts alice's clock
	c.Advance(29 * time.Minute)
	if n, _ := s.Sweep(ctx); n != 0 {
		t.Fatalf("sweep within the limits ended %d", n)
	}
	c.Advance(time.Minute)
	if n, err := s.Sweep(ctx); n != 1 || err != nil || expired[0].ID() != d.ID() {
		t.Fatalf("sweep at alice's limit: %d, %v, %v", n, err, expired)
	}
	e := expired[0]
	if e.Status() != Expired || e.Winner() != engine.White || !e.Deadline().IsZero() {
		t.Fatalf("expired duel: %s, winner %v: alice let her time run out", e.Status(), e.Winner())
	}
	replayMatches(t, e)
	if b, _ := s.Stats(ctx, "test", bob.ID); b.Against(VsPeople) != (Tally{Wins: 1}) || b.Rating != 1216 {
		t.Fatalf("bob's stats after alice's timeout: %+v", b)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: d.ID(), MoveNo: 2, Cell: engine.Point{X: 2, Y: 2}}); !errors.Is(err, ErrGameOver) {
		t.Fatalf("place after the timeout: %v", err)
	}

	c.Advance(DefaultIdleAI - 60*time.Minute)
	if n, _ := s.Sweep(ctx); n != 0 {
		t.Fatalf("the AI game expired early")
	}
	c.Advance(time.Minute)
	// A tap at the deadline expires the game instead of playing.
	got, err := s.Begin(ctx, Request{Actor: as(carol)}).Place(PlaceRequest{Game: ai.ID(), MoveNo: 0})
	if !errors.Is(err, ErrExpired) || got.Status() != Expired || got.Winner() != engine.Empty || got.MoveNo() != 0 {
		t.Fatalf("tap on an idle AI game: %s %v move %d, %v", got.Status(), got.Winner(), got.MoveNo(), err)
	}
	if cs, _ := s.Stats(ctx, "test", carol.ID); cs.Total().Games() != 0 {
		t.Fatalf("an expired AI game counted: %+v", cs.Total())
	}
	if _, err := s.Begin(ctx, Request{Actor: as(carol)}).Running(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired AI game still running: %v", err)
	}
}

func TestSweeperLoop(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	reports := make(chan View, 1)
	s := newClockService(st, c, 1, Config{OnExpire: func(v View) { reports <- v }})
	v := challenge(t, s, User{})
	tick := make(chan time.Time)
	loopCtx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- s.RunSweeper(loopCtx, tick, func(err error) { t.Error(err) }) }()
	tick <- time.Time{} // nothing due yet
	c.Advance(DefaultChallengeTTL)
	tick <- time.Time{}
	if got := <-reports; got.ID() != v.ID() || got.Status() != Lapsed {
		t.Fatalf("reported %s %s", got.ID(), got.Status())
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("loop ended with %v", err)
	}
}

func TestRematch(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	g, _ := s.Begin(ctx, Request{Actor: as(bob)}).Accept(challenge(t, s, User{}).ID())
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Rematch(g.ID()); !errors.Is(err, ErrNotOver) {
		t.Fatalf("rematch of a running game: %v, want ErrNotOver", err)
	}
	end := winTopRow(t, s, g)
	if _, err := s.Begin(ctx, Request{Actor: as(carol)}).Rematch(end.ID()); !errors.Is(err, ErrNotAPlayer) {
		t.Fatalf("rematch by a stranger: %v", err)
	}
	// Both players ask at once, twice each: one game.
	var wg sync.WaitGroup
	ids := make([]GameID, 4)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := s.Begin(ctx, Request{Actor: as([]User{alice, bob}[i%2])}).Rematch(end.ID())
			if err != nil {
				t.Error(err)
			}
			ids[i] = v.ID()
		}()
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("rematches %v: want one game", ids)
		}
	}
	r, _ := s.Game(ctx, ids[0])
	if r.Status() != Running || r.SideOf(alice.ID) != engine.White || r.SideOf(bob.ID) != engine.Black || r.Rules() != end.Rules() {
		t.Fatalf("rematch: %s, alice %v bob %v", r.Status(), r.SideOf(alice.ID), r.SideOf(bob.ID))
	}
	if old, _ := s.Game(ctx, end.ID()); old.Rematch() != r.ID() {
		t.Fatalf("finished game points to rematch %q", old.Rematch())
	}
	if live, _ := s.Begin(ctx, Request{Actor: as(alice)}).Live(); len(live) != 1 {
		t.Fatalf("alice has %d live games, want the one rematch", len(live))
	}

	// A duel rematch is a challenge until the other player asks too; a
	// declined one makes way for a new one.
	end2 := winTopRow(t, s, r)
	c, err := s.Begin(ctx, Request{Actor: as(alice)}).Rematch(end2.ID())
	if err != nil || c.Status() != Open || c.Challenger() != c.SideOf(alice.ID) || c.SideOf(bob.ID) != engine.White {
		t.Fatalf("duel rematch: %s, challenger %v, alice %v, bob %v, %v", c.Status(), c.Challenger(), c.SideOf(alice.ID), c.SideOf(bob.ID), err)
	}
	if again, err := s.Begin(ctx, Request{Actor: as(alice)}).Rematch(end2.ID()); err != nil || again.ID() != c.ID() || again.Status() != Open {
		t.Fatalf("alice asks again: %s %s, %v", again.ID(), again.Status(), err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Decline(c.ID()); err != nil {
		t.Fatal(err)
	}
	c2, err := s.Begin(ctx, Request{Actor: as(bob)}).Rematch(end2.ID())
	if err != nil || c2.ID() == c.ID() || c2.Status() != Open || c2.Challenger() != c2.SideOf(bob.ID) {
		t.Fatalf("rematch after a decline: %s %s, %v; want a new challenge from bob", c2.ID(), c2.Status(), err)
	}
	if got, err := s.Begin(ctx, Request{Actor: as(alice)}).Rematch(end2.ID()); err != nil || got.ID() != c2.ID() || got.Status() != Running {
		t.Fatalf("alice accepts by asking: %s %s, %v", got.ID(), got.Status(), err)
	}

	// Against the AI: colours swap, so the AI moves first.
	v := start(t, s, carol, engine.Easy, First)
	v, _ = s.Begin(ctx, Request{Actor: as(carol)}).Resign(v.ID())
	u := start(t, s, carol, engine.Easy, First)
	u, _ = s.Begin(ctx, Request{Actor: as(carol)}).Resign(u.ID())
	w, err := s.Begin(ctx, Request{Actor: as(carol)}).Rematch(v.ID())
	if err != nil || w.SideOf(carol.ID) != engine.White || w.MoveNo() != 1 {
		t.Fatalf("AI rematch: carol %v, move %d, %v", w.SideOf(carol.ID), w.MoveNo(), err)
	}
	if again, err := s.Begin(ctx, Request{Actor: as(carol)}).Rematch(v.ID()); err != nil || again.ID() != w.ID() {
		t.Fatalf("second AI rematch: %s, %v", again.ID(), err)
	}
	// One running game against the AI per user and chat.
	if got, err := s.Begin(ctx, Request{Actor: as(carol)}).Rematch(u.ID()); !errors.Is(err, ErrAlreadyPlaying) || got.ID() != w.ID() {
		t.Fatalf("rematch while another AI game runs: %s, %v", got.ID(), err)
	}
}

func TestEloUpdate(t *testing.T) {
	for _, tt := range []struct{ a, b, score, wantA, wantB float64 }{
		{1200, 1200, 1, 1216, 1184},
		{1200, 1200, 0.5, 1200, 1200},
		{1200, 1200, 0, 1184, 1216},
		{1400, 1200, 0.5, 1391.6880983, 1208.3119017},
	} {
		a, b := eloUpdate(tt.a, tt.b, tt.score)
		if math.Abs(a-tt.wantA) > 1e-6 || math.Abs(b-tt.wantB) > 1e-6 {
			t.Errorf("eloUpdate(%v, %v, %v) = %v, %v; want %v, %v", tt.a, tt.b, tt.score, a, b, tt.wantA, tt.wantB)
		}
	}
}

func TestStatsAndLeaderboards(t *testing.T) {
	st, _ := mustOpenStore(t)
	weak := func(engine.Level, *rand.Rand) (engine.Player, error) { return firstLegal{}, nil }
	s := newClockService(st, newClock(), 1, Config{NewPlayer: weak})
	dave := User{ID: "4", Name: "dave"}
	// alice beats bob twice, bob beats carol; a draw between carol and dave
	// lifts dave above bob, who lost twice.
	duel := func(black, white User) View {
		v, err := s.Begin(ctx, Request{Actor: as(black)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Opponent: white})
		if err != nil {
			t.Fatal(err)
		}
		v, err = s.Begin(ctx, Request{Actor: as(white)}).Accept(v.ID())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	winTopRow(t, s, duel(alice, bob))
	winTopRow(t, s, duel(alice, bob))
	winTopRow(t, s, duel(bob, carol))
	v := duel(carol, dave)
	for i, m := range [][2]int{{1, 1}, {0, 0}, {2, 2}, {0, 2}, {0, 1}, {2, 1}, {1, 2}, {1, 0}, {2, 0}} {
		v = mustPlay(t, s, []User{carol, dave}[i%2], v, m[0], m[1])
	}
	if v.Status() != Drawn {
		t.Fatalf("scripted draw ended %s", v.Status())
	}
	// dave beats the (weak) hard AI at 7×7 and loses to easy at gomoku.
	g, _ := s.Begin(ctx, Request{Actor: as(dave)}).Start(StartRequest{Rules: engine.Rules{Width: 7, Height: 7, K: 5}, Level: engine.Hard})
	for !g.Status().Over() {
		g = mustPlay(t, s, dave, g, g.MoveNo()/2, 6)
	}
	if g.Winner() != engine.Black {
		t.Fatalf("dave vs weak hard: %s %v", g.Status(), g.Winner())
	}
	gomoku, _ := engine.Preset("gomoku")
	g, _ = s.Begin(ctx, Request{Actor: as(dave)}).Start(StartRequest{Rules: gomoku, Level: engine.Easy})
	s.Begin(ctx, Request{Actor: as(dave)}).Resign(g.ID())

	d, _ := s.Stats(ctx, "test", dave.ID)
	if d.Result(engine.FamilyNxN, VsHard) != (Tally{Wins: 1}) || d.Result(engine.FamilyGomoku, VsEasy) != (Tally{Losses: 1}) ||
		d.Result(engine.FamilyTicTacToe, VsPeople) != (Tally{Draws: 1}) || d.Total().Games() != 3 {
		t.Fatalf("dave's stats: %+v", d.Results)
	}
	board := func(chat string, by Board) []Standing {
		t.Helper()
		l, err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: chat}}).Leaderboard(by)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	top := board("c", ByRating)
	var order []string
	for _, st := range top {
		order = append(order, fmt.Sprintf("%d:%s", st.Rank, st.Stats.User.Name))
	}
	if fmt.Sprint(order) != "[1:alice 2:dave 3:bob 4:carol]" {
		t.Fatalf("top by rating: %v", order)
	}
	hard := board("c", ByHardWins)
	if len(hard) != 1 || hard[0].Stats.User.ID != dave.ID || ByHardWins.Score(hard[0].Stats) != 1 {
		t.Fatalf("top by wins against hard: %+v", hard)
	}
	if other := board("elsewhere", ByRating); len(other) != 0 {
		t.Fatalf("another chat's board has %d", len(other))
	}
}

func TestSettings(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	if l, err := s.Begin(ctx, Request{Actor: as(alice)}).Lang(); l != "" || err != nil {
		t.Fatalf("lang with nothing set: %q, %v", l, err)
	}
	gomoku, _ := engine.Preset("gomoku")
	cs := ChatSettings{Lang: "zh", Rules: gomoku, Level: engine.Hard}
	if err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "c"}}).SetChatSettings(cs); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "c"}}).ChatSettings(); got != cs {
		t.Fatalf("chat settings %+v", got)
	}
	if l, _ := s.Begin(ctx, Request{Actor: as(alice)}).Lang(); l != "zh" {
		t.Fatalf("lang from the chat: %q", l)
	}
	if err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", User: User{ID: alice.ID}}}).SetUserSettings(UserSettings{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.Begin(ctx, Request{Actor: as(alice)}).Lang(); l != "en" {
		t.Fatalf("user override: %q", l)
	}
	if l, _ := s.Begin(ctx, Request{Actor: as(bob)}).Lang(); l != "zh" {
		t.Fatalf("bob: %q", l)
	}
	for _, bad := range []ChatSettings{{Lang: "EN"}, {Lang: "klingon-x"}, {Level: 9}, {Rules: engine.Rules{Width: 2}}} {
		if err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "c"}}).SetChatSettings(bad); !errors.Is(err, ErrBadRequest) {
			t.Errorf("chat settings %+v: %v", bad, err)
		}
	}
	if err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", User: User{ID: alice.ID}}}).SetUserSettings(UserSettings{Lang: "e n"}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("bad user lang: %v", err)
	}
	if got, _ := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "c"}}).ChatSettings(); got != cs {
		t.Fatalf("refused settings changed them: %+v", got)
	}
}

// TestStartAfterIdleGame starts a new AI game while an idle one awaits the
// sweeper: the new one is the running game, and expiring the old one
// later leaves it so.
func TestStartAfterIdleGame(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	s := newClockService(st, c, 1, Config{})
	old := start(t, s, alice, engine.Easy, First)
	c.Advance(DefaultIdleAI)
	v := start(t, s, alice, engine.Easy, First)
	if v.ID() == old.ID() {
		t.Fatal("Start returned the idle game")
	}
	if n, err := s.Sweep(ctx); n != 1 || err != nil {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if r, err := s.Begin(ctx, Request{Actor: as(alice)}).Running(); err != nil || r.ID() != v.ID() {
		t.Fatalf("running after the sweep: %s, %v; want %s", r.ID(), err, v.ID())
	}
	if o, _ := s.Game(ctx, old.ID()); o.Status() != Expired {
		t.Fatalf("idle game %s", o.Status())
	}
}

// TestAddresseeMatching checks who a challenge addressed to someone is
// for: the addressee's id when the challenge has one, else their handle
// (exactly, ignoring case and a leading '@'), never a display name.
func TestAddresseeMatching(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	for _, tc := range []struct {
		name string
		to   User
		who  User
		want bool
	}{
		{"handle matches", User{Handle: "dave"}, User{ID: "10", Name: "Dave", Handle: "dave"}, true},
		{"handle ignores case and @", User{Handle: "@Dave"}, User{ID: "10", Handle: "DAVE"}, true},
		{"name is not a handle", User{Handle: "dave"}, User{ID: "11", Name: "dave"}, false},
		{"name with a handle of its own", User{Handle: "dave"}, User{ID: "12", Name: "dave", Handle: "mallory"}, false},
		{"handle prefix", User{Handle: "dave"}, User{ID: "13", Handle: "dave2"}, false},
		{"handle in the name", User{Handle: "dave"}, User{ID: "14", Name: "@dave"}, false},
		{"id matches", User{ID: "20", Name: "dave", Handle: "dave"}, User{ID: "20"}, true},
		{"id wins over the handle", User{ID: "20", Name: "dave", Handle: "dave"}, User{ID: "21", Name: "dave", Handle: "dave"}, false},
		{"id without a handle", User{ID: "22", Name: "erin"}, User{ID: "23", Name: "erin"}, false},
		{"no id", User{Handle: "dave"}, User{Handle: "dave"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := challenge(t, s, tc.to)
			defer s.Begin(ctx, Request{Actor: as(alice)}).Cancel(v.ID())
			if got := v.IsFor(tc.who); got != tc.want {
				t.Errorf("IsFor(%+v) = %v", tc.who, got)
			}
			if !tc.want {
				for name, act := range map[string]func(*Turn, GameID) (View, error){"accept": (*Turn).Accept, "decline": (*Turn).Decline} {
					if _, err := act(turn(s, tc.who), v.ID()); !errors.Is(err, ErrNotForYou) {
						t.Errorf("%s by %+v: %v, want ErrNotForYou", name, tc.who, err)
					}
				}
				if now, _ := s.Game(ctx, v.ID()); now.Status() != Open || now.Version() != v.Version() {
					t.Errorf("refused answers changed the challenge: %s, version %d", now.Status(), now.Version())
				}
				return
			}
			d, err := s.Begin(ctx, Request{Actor: as(tc.who)}).Decline(v.ID())
			if err != nil || d.Status() != Declined {
				t.Errorf("decline by %+v: %s, %v", tc.who, d.Status(), err)
			}
		})
	}
}
