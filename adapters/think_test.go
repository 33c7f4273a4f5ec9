package adapters

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// firstCell is an AI that plays the first empty cell at once, whatever
// its level, so that a test of who waits for it does not wait.
type firstCell struct{}

func (firstCell) Move(_ context.Context, b *engine.Board) (engine.Point, error) {
	return b.LegalMoves()[0], nil
}

// TestThinkIsTheAIPoolRule checks that a request's Think hook runs its
// wait exactly when the AI answers with a search of the AI pool
// (session.Expensive), at its boundary: hard on 4×4 answers at once, hard
// on 5×5 searches; easy and medium never do. It is asked for nothing when
// the player moves first, for a stale or bad tap, a tap from another
// chat, or ordinary chat.
func TestThinkIsTheAIPoolRule(t *testing.T) {
	for _, tt := range []struct {
		preset string
		level  engine.Level
		slow   bool
	}{
		{"4x4", engine.Hard, false},
		{"5x5", engine.Hard, true},
		{"gomoku", engine.Hard, true},
		{"gomoku", engine.Medium, false},
		{"ttt", engine.Easy, false},
	} {
		rules, _ := engine.Preset(tt.preset)
		// The rungs below hard answer at once: those that search stop
		// within a few thousand nodes.
		if got := session.Expensive(engine.Rungs-1, rules); got {
			t.Errorf("Expensive(rung %d, %s) = true", engine.Rungs-1, tt.preset)
		}
		if got := session.Expensive(tt.level.Rung(), rules); got != tt.slow {
			t.Errorf("Expensive(%v, %s) = %v", tt.level, tt.preset, got)
		}
		st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		seed := uint64(0)
		svc := session.New(st, &session.Config{
			NewSeed:   func() uint64 { seed++; return seed },
			NewPlayer: func(engine.Level, *rand.Rand) (engine.Player, error) { return firstCell{}, nil },
		})
		d := NewDispatcher(svc, "test", "", nil)
		waits := 0
		me := req("alice")
		me.Think = func(wait func()) { waits++; wait() }
		thinks := func(what string, want bool, dec Decision) reply {
			t.Helper()
			if got := waits > 0; got != want {
				t.Errorf("%s %s: waited %d times, want a wait %v", tt.preset, what, waits, want)
			}
			waits = 0
			return read(dec)
		}
		play := "/play " + tt.level.String() + " " + tt.preset
		v := thinks(play, false, d.Text(ctx, me, play)).Game
		if v == nil {
			t.Fatalf("%s: no game", play)
		}
		if err := bind(d, v.ID(), "m1"); err != nil {
			t.Fatal(err)
		}
		_, kb := render.Message(*v, render.English, render.ConsoleLayout, nil)
		var cells []render.Action
		for _, row := range kb.Rows {
			for _, b := range row {
				if b.Action.Kind == render.Place {
					cells = append(cells, b.Action)
				}
			}
		}
		stale := cells[0]
		stale.MoveNo++
		thinks("stale tap", false, d.Tap(ctx, me, EncodeAction(stale)))
		thinks("bad tap", false, d.Tap(ctx, me, "junk"))
		other := me
		other.Chat = "elsewhere"
		thinks("tap from another chat", false, d.Tap(ctx, other, EncodeAction(cells[0])))
		thinks("ordinary chat", false, d.Text(ctx, me, "hello"))
		v = thinks("tap", tt.slow, d.Tap(ctx, me, EncodeAction(cells[0]))).Game
		coord := render.FormatCoord(v.Board().LegalMoves()[0], v.Rules())
		thinks("typed "+coord, tt.slow, d.Text(ctx, me, coord))
		thinks("/resign", false, d.Text(ctx, me, "/resign"))
		// The rematch swaps colours: the AI, White here, moves first.
		thinks("/rematch", tt.slow, d.Text(ctx, me, "/rematch"))
		thinks(play+" second while playing", false, d.Text(ctx, me, play+" second"))
		thinks("/resign", false, d.Text(ctx, me, "/resign"))
		thinks(play+" second", tt.slow, d.Text(ctx, me, play+" second"))
	}
}
