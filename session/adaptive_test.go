package session

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
	"github.com/boardbot/boardbot/session/rating"
)

// TestAdaptiveGameStartsAtTheRatingsRung checks that /play adaptive puts
// a new player against the rung nearest the start rating (between easy
// and medium), a strong player against a stronger rung, and on 3×3 only
// rungs that can lose.
func TestAdaptiveGameStartsAtTheRatingsRung(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	gomoku, _ := engine.Preset("gomoku")
	start := func(u User, r engine.Rules) Seat {
		t.Helper()
		v, err := s.Begin(ctx, Request{Actor: as(u)}).Start(StartRequest{Rules: r, Level: engine.Adaptive})
		if err != nil {
			t.Fatal(err)
		}
		seat := v.Seat(engine.White)
		if _, err := s.Begin(ctx, Request{Actor: as(u)}).Resign(v.ID()); err != nil {
			t.Fatal(err)
		}
		return seat
	}
	seat := start(alice, gomoku)
	if seat.AI != engine.Adaptive || !seat.Rung.Valid() {
		t.Fatalf("adaptive seat %+v", seat)
	}
	if lo, hi := engine.Easy.Rung(), engine.Medium.Rung(); seat.Rung < lo || seat.Rung > hi {
		t.Errorf("a new player meets rung %d, want between easy (%d) and medium (%d)", seat.Rung, lo, hi)
	}
	// bob is rated far above hard in gomoku: he meets the top rung.
	strong := newStats(bob)
	strong.VsAI[familyIndex(engine.FamilyGomoku)] = strong.AIRating(engine.FamilyGomoku)
	strong.VsAI[familyIndex(engine.FamilyGomoku)].Value = engine.Rungs.Elo() + 500
	strong.AIGames[familyIndex(engine.FamilyGomoku)] = 40
	if err := st.Update(context.Background(), func(tx kv.Tx) error { return layout{tx}.PutStats("test", "c", strong) }); err != nil {
		t.Fatal(err)
	}
	if seat := start(bob, gomoku); seat.Rung != engine.Rungs {
		t.Errorf("a player rated above hard meets rung %d, want %d", seat.Rung, engine.Rungs)
	}
	// On 3×3 even he meets a rung that can lose.
	if seat := start(bob, engine.TicTacToe()); seat.Rung > engine.MaxRung(engine.TicTacToe()) {
		t.Errorf("tic-tac-toe at rung %d, above %d, which can lose", seat.Rung, engine.MaxRung(engine.TicTacToe()))
	}
}

// TestGamesAgainstTheAIMoveTheRating checks that a finished game against
// the AI moves the player's rating in its family, in the transaction that
// ends it, and that a game with a takeback or a hint does not.
func TestGamesAgainstTheAIMoveTheRating(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{Limits: Limits{HintsPerGame: 3}, NewPlayer: func(engine.Level, *rand.Rand) (engine.Player, error) { return firstLegal{}, nil }})
	sevens := engine.Rules{Width: 7, Height: 7, K: 4}
	play := func(level engine.Level, undo, hint bool) Stats {
		t.Helper()
		v, err := s.Begin(ctx, Request{Actor: as(alice)}).Start(StartRequest{Rules: sevens, Level: level})
		if err != nil {
			t.Fatal(err)
		}
		if hint {
			if v, err = s.Begin(ctx, Request{Actor: as(alice)}).Hint(HintRequest{Game: v.ID(), MoveNo: v.MoveNo()}); err != nil {
				t.Fatal(err)
			}
		}
		// alice builds a four on the bottom row; firstLegal plays the top.
		for x := range 4 {
			if v.Status() != Running {
				break
			}
			v = mustPlay(t, s, alice, v, x, 6)
			if undo && x == 1 {
				if v, err = s.Begin(ctx, Request{Actor: as(alice)}).Undo(UndoRequest{Game: v.ID(), MoveNo: v.MoveNo()}); err != nil {
					t.Fatal(err)
				}
				v = mustPlay(t, s, alice, v, x, 6)
			}
		}
		if v.Status() != Won || v.Winner() != engine.Black {
			t.Fatalf("alice did not win: %s", v.Status())
		}
		stats, err := s.Stats(ctx, "test", alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		return stats
	}
	f := familyIndex(engine.FamilyNxN)
	before := newStats(alice).AIRating(engine.FamilyNxN)
	after := play(engine.Medium, false, false)
	if after.AIGames[f] != 1 || after.VsAI[f].Value <= before.Value || after.VsAI[f].Deviation >= before.Deviation || after.VsAI[f].Streak != 1 {
		t.Fatalf("a win against medium: %d games, rating %+v from %+v", after.AIGames[f], after.VsAI[f], before)
	}
	for _, tt := range []struct{ undo, hint bool }{{true, false}, {false, true}} {
		if got := play(engine.Medium, tt.undo, tt.hint); got.AIGames[f] != after.AIGames[f] || got.VsAI[f] != after.VsAI[f] {
			t.Errorf("a game with takeback %v, hint %v moved the rating: %+v", tt.undo, tt.hint, got.VsAI[f])
		}
	}
	// The rating outlives the store's encoding.
	data, err := encodeStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeStats(data)
	if err != nil || back.VsAI != after.VsAI || back.AIGames != after.AIGames {
		t.Fatalf("decoded %+v %v, %v", back.VsAI, back.AIGames, err)
	}
}

// TestStoredRatingsAgainstTheAI checks that a stats record written before
// ratings against the AI kept a streak reads as one with no streak, that
// a streak is kept, and that a streak longer than the games counted is
// refused.
func TestStoredRatingsAgainstTheAI(t *testing.T) {
	const head = `{"v":3,"user":{"id":"1","name":"alice"},"res":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"elo":1200,`
	const zero = `{"value":0,"deviation":0,"volatility":0}`
	record := func(streak string) string {
		return head + `"vsai":[` + zero + `,{"value":1700.5,"deviation":150,"volatility":0.06` + streak + `},` + zero + `,` + zero + `],"aig":[0,5,0,0]}`
	}
	f := familyIndex(engine.FamilyNxN)
	for _, c := range []struct {
		streak string
		want   int
	}{{``, 0}, {`,"streak":-5`, -5}, {`,"streak":3`, 3}} {
		s, err := decodeStats([]byte(record(c.streak)))
		if err != nil {
			t.Fatalf("record with streak %q: %v", c.streak, err)
		}
		if want := (rating.Rating{Value: 1700.5, Deviation: 150, Volatility: 0.06, Streak: c.want}); s.VsAI[f] != want || s.AIGames[f] != 5 {
			t.Errorf("record with streak %q: %+v after %d games, want %+v", c.streak, s.VsAI[f], s.AIGames[f], want)
		}
		data, err := encodeStats(&s)
		if back, err2 := decodeStats(data); err != nil || err2 != nil || back.VsAI != s.VsAI {
			t.Errorf("record with streak %q: re-encoded as %s, decoded %+v, %v, %v", c.streak, data, back.VsAI, err, err2)
		}
	}
	for _, streak := range []string{`,"streak":6`, `,"streak":-6`} {
		if _, err := decodeStats([]byte(record(streak))); !errors.Is(err, ErrSchema) {
			t.Errorf("record with streak %q after 5 games: err = %v, want ErrSchema", streak, err)
		}
	}
}

// TestAdaptiveFollowsAFixedRung plays 20 real games of 15×15 between the
// adaptive AI and a player who is a fixed rung of the ladder (medium):
// the player's rating, started between easy and medium, moves toward
// medium's Elo, and the rungs the adaptive AI chooses move with it.
func TestAdaptiveFollowsAFixedRung(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 7)
	gomoku, _ := engine.Preset("gomoku")
	me, _ := engine.NewRungPlayer(engine.Medium.Rung(), engine.Options{Rand: rand.New(rand.NewPCG(1, 2))})
	target := engine.Medium.Rung().Elo()
	start := StartRating()
	var first, last engine.Rung
	for g := range 20 {
		side := First
		if g%2 == 1 {
			side = Second
		}
		v, err := s.Begin(ctx, Request{Actor: as(alice)}).Start(StartRequest{Rules: gomoku, Level: engine.Adaptive, Side: side})
		if err != nil {
			t.Fatal(err)
		}
		rung := v.Seat(engine.White).Rung
		if side == Second {
			rung = v.Seat(engine.Black).Rung
		}
		if g == 0 {
			first = rung
		}
		last = rung
		for v.Status() == Running {
			b, err := engine.Replay(v.Rules(), v.Moves())
			if err != nil {
				t.Fatal(err)
			}
			p, err := me.Move(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			v = mustPlay(t, s, alice, v, p.X, p.Y)
		}
	}
	stats, err := s.Stats(ctx, "test", alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := stats.AIRating(engine.FamilyGomoku)
	t.Logf("after 20 games: rating %.0f ± %.0f (medium's rung: %.0f, start %.0f); rungs %d → %d", r.Value, r.Deviation, target, start, first, last)
	if stats.AIGames[familyIndex(engine.FamilyGomoku)] != 20 {
		t.Errorf("%d games counted, want 20", stats.AIGames[familyIndex(engine.FamilyGomoku)])
	}
	if math.Abs(r.Value-target) >= math.Abs(start-target) {
		t.Errorf("the rating %.0f did not move toward medium's %.0f from %.0f", r.Value, target, start)
	}
}
