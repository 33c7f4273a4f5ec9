package session

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// lifecycle plays challenges, a duel, a rematch and an AI game on a fresh
// bbolt file, closing and reopening the store between every step when
// restart is set, and returns a transcript of every view it saw.
func lifecycle(t *testing.T, restart bool) string {
	path := filepath.Join(t.TempDir(), "bot.db")
	c := newClock()
	var seed atomic.Uint64
	cfg := &Config{Now: c.Now, NewSeed: func() uint64 { return seed.Add(1) }}
	st, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(st, cfg)
	defer func() { checkAndClose(t, st) }()
	var out strings.Builder
	step := func(v View, err error) View {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s %s v%d seats %v/%v moves %v winner %v due %v rematch %q\n", v.ID(), v.Status(), v.Version(),
			v.Seat(engine.Black), v.Seat(engine.White), v.Moves(), v.Winner(), v.Deadline().Unix(), v.Rematch())
		if restart {
			checkAndClose(t, st)
			if st, err = openBolt(path, nil); err != nil {
				t.Fatal(err)
			}
			s = New(st, cfg)
		}
		c.Advance(30 * 1e9)
		return v
	}
	place := func(v View, u User, x, y int) View {
		t.Helper()
		return step(s.Begin(ctx, Request{Actor: as(u)}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: engine.Point{X: x, Y: y}}))
	}

	// An open challenge survives, then lapses on schedule.
	lapsing := step(s.Begin(ctx, Request{Actor: as(carol)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe()}))
	// An addressed one with random colours is accepted after a restart.
	v := step(s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Opponent: User{Handle: "bob"}, Side: RandomSide}))
	v = step(s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID()))
	blk, wht := v.Seat(engine.Black).User, v.Seat(engine.White).User
	v = place(v, blk, 0, 0)
	v = place(v, wht, 0, 1)
	v = place(v, blk, 1, 0)
	v = place(v, wht, 1, 1)
	v = place(v, blk, 2, 0)
	// The finished duel awaits its rematch across restarts.
	r := step(s.Begin(ctx, Request{Actor: as(bob)}).Rematch(v.ID()))
	step(s.Begin(ctx, Request{Actor: as(alice)}).Rematch(v.ID()))
	step(s.Game(ctx, v.ID()))
	r = place(r, r.Seat(engine.Black).User, 1, 1)
	r = place(r, r.Seat(engine.White).User, 0, 0)
	// The turn limit runs on stored deadlines.
	c.Advance(DefaultTurnLimit)
	n, err := s.Sweep(ctx)
	fmt.Fprintf(&out, "sweep %d %v\n", n, err)
	step(s.Game(ctx, r.ID()))
	step(s.Game(ctx, lapsing.ID()))
	// An AI game goes on after a restart with the same replies.
	a := step(s.Begin(ctx, Request{Actor: as(carol)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard}))
	a = place(a, carol, 0, 0)
	place(a, carol, a.Board().LegalMoves()[0].X, a.Board().LegalMoves()[0].Y)
	for _, u := range []User{alice, bob, carol} {
		st, err := s.Stats(ctx, "test", u.ID)
		fmt.Fprintf(&out, "%s %+v %v\n", u.Name, st, err)
	}
	return out.String()
}

// TestRestartGivesSameResult checks that closing and reopening the store
// in the middle of every lifecycle changes nothing of what follows.
func TestRestartGivesSameResult(t *testing.T) {
	plain, restarted := renumber(lifecycle(t, false)), renumber(lifecycle(t, true))
	if plain != restarted {
		t.Fatalf("with restarts:\n%s\nwithout:\n%s", restarted, plain)
	}
	for _, want := range []string{` lapsed `, ` expired `, `sweep 2 <nil>`, `rematch "[0-9a-z]+"`, ` won `} {
		if !regexp.MustCompile(want).MatchString(plain) {
			t.Errorf("transcript lacks %q:\n%s", want, plain)
		}
	}
}

// renumber names the game ids of a transcript g1, g2, ... in the order
// they first appear: ids are opaque, and a store may skip numbers across
// a restart.
func renumber(transcript string) string {
	ids := map[string]string{}
	name := func(id string) string {
		if id == "" {
			return id
		}
		if _, ok := ids[id]; !ok {
			ids[id] = fmt.Sprintf("g%d", len(ids)+1)
		}
		return ids[id]
	}
	lines := strings.Split(transcript, "\n")
	start := regexp.MustCompile(`^([0-9a-z]+) (open|running|won|drawn|resigned|expired|aborted|declined|cancelled|lapsed) `)
	rematch := regexp.MustCompile(`rematch "([0-9a-z]*)"`)
	for i, l := range lines {
		if m := start.FindStringSubmatch(l); m != nil {
			l = name(m[1]) + l[len(m[1]):]
		}
		lines[i] = rematch.ReplaceAllStringFunc(l, func(r string) string {
			return `rematch "` + name(rematch.FindStringSubmatch(r)[1]) + `"`
		})
	}
	return strings.Join(lines, "\n")
}
