package session

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// TestThousandTapsOverHundredGames sends 1000 doubled taps over 100 duels
// from many goroutines, some by the wrong player or with an old move
// number, and then checks every game: each accepted tap is one move, the
// moves replay through the engine to the stored result, and the stats
// count every finished game once.
func TestThousandTapsOverHundredGames(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{})
	const games, workers, taps = 100, 25, 1000
	rules := engine.Rules{Width: 4, Height: 4, K: 3}
	ids := make([]GameID, games)
	for i := range ids {
		a, b := User{ID: fmt.Sprint("a", i), Name: "a"}, User{ID: fmt.Sprint("b", i%7), Name: "b"}
		v, err := s.Begin(ctx, Request{Actor: as(a)}).Challenge(ChallengeRequest{Rules: rules, Opponent: b})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Begin(ctx, Request{Actor: as(b)}).Accept(v.ID()); err != nil {
			t.Fatal(err)
		}
		ids[i] = v.ID()
	}
	applied := make([]atomic.Int64, games)
	var sent atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			// Pick games until 1000 taps are sent; the bound on tries only
			// matters if every game ended first.
			for try := 0; try < 100*taps && sent.Load() < taps; try++ {
				i := rng.IntN(games)
				v, err := s.Game(ctx, ids[i])
				if err != nil {
					t.Error(err)
					return
				}
				if v.Status().Over() || sent.Add(1) > taps {
					continue
				}
				legal := v.Board().LegalMoves()
				req := PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: legal[rng.IntN(len(legal))]}
				who := v.Seat(v.ToMove()).User
				switch rng.IntN(10) {
				case 0:
					who = v.Seat(v.ToMove().Opponent()).User
				case 1:
					req.MoveNo = max(0, req.MoveNo-1)
				}
				// A doubled tap: at most one of the two may apply.
				var pair sync.WaitGroup
				var ok atomic.Int64
				for range 2 {
					pair.Add(1)
					go func() {
						defer pair.Done()
						_, err := s.Begin(ctx, Request{Actor: as(who)}).Place(req)
						switch {
						case err == nil:
							ok.Add(1)
						case errors.Is(err, ErrStale), errors.Is(err, ErrNotYourTurn), errors.Is(err, ErrGameOver), errors.Is(err, ErrCellTaken):
						default:
							t.Errorf("game %s: %v", req.Game, err)
						}
					}()
				}
				pair.Wait()
				if ok.Load() > 1 {
					t.Errorf("game %s: both taps of move %d applied", req.Game, req.MoveNo)
				}
				applied[i].Add(ok.Load())
			}
		}()
	}
	wg.Wait()

	total := map[string]Tally{}
	wantTotal := map[string]Tally{}
	finished := 0
	for i, id := range ids {
		v, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		replayMatches(t, v)
		if n := int64(v.MoveNo()); n != applied[i].Load() || v.Version() != 2+int(n) {
			t.Errorf("game %s: %d moves, version %d, %d taps applied", id, n, v.Version(), applied[i].Load())
		}
		if !v.Status().Over() {
			continue
		}
		finished++
		for _, side := range []engine.Stone{engine.Black, engine.White} {
			u := v.Seat(side).User.ID
			tl := wantTotal[u]
			switch v.Winner() {
			case engine.Empty:
				tl.Draws++
			case side:
				tl.Wins++
			default:
				tl.Losses++
			}
			wantTotal[u] = tl
		}
	}
	for u := range wantTotal {
		st, err := s.Stats(ctx, "test", u)
		if err != nil {
			t.Fatal(err)
		}
		total[u] = st.Against(VsPeople)
	}
	if fmt.Sprint(total) != fmt.Sprint(wantTotal) {
		t.Errorf("stats %v, games say %v", total, wantTotal)
	}
	if sent.Load() < taps {
		t.Errorf("only %d taps sent", sent.Load())
	}
	if finished == 0 {
		t.Error("no game finished: the test exercised no ending")
	}
	t.Logf("%d of %d games finished", finished, games)
}
