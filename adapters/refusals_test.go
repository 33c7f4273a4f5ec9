package adapters

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// refusalLog is a session.Observer that records refusal reasons.
type refusalLog struct {
	mu      sync.Mutex
	reasons []string
}

func (r *refusalLog) Moved(session.Platform, bool) {}
func (r *refusalLog) Refused(_ session.Platform, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reasons = append(r.reasons, reason)
}
func (r *refusalLog) Thought(engine.Level, engine.Rules, time.Duration) {}
func (r *refusalLog) Committed(time.Duration)                           {}

// TestEveryRefusalIsCounted checks that refusals found before the session
// is asked (bad commands, forged buttons, coordinates off the board) reach
// the session's observer, like the session's own refusals.
func TestEveryRefusalIsCounted(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := &refusalLog{}
	d := NewDispatcher(session.New(st, &session.Config{NewSeed: func() uint64 { return 3 }, Observer: log}), "test", "", nil)
	ctx := context.Background()
	req := Request{Chat: "c", User: session.User{ID: "1", Name: "ann"}, Locale: "en", Message: "m"}

	read(d.Text(ctx, req, "/dance"))
	read(d.Tap(ctx, req, "p:zz:garbage"))
	if r := read(d.Text(ctx, req, "/play")); r.Game == nil {
		t.Fatalf("/play: %+v", r)
	}
	read(d.Text(ctx, req, "z9"))
	read(d.Text(ctx, req, "hello there")) // ordinary chat: not a refusal
	read(d.Text(ctx, req, "/play"))       // already playing: a session refusal
	want := []string{ReasonBadCommand, ReasonBadCallback, ReasonBadCoord, session.Reason(session.ErrAlreadyPlaying)}
	if !slices.Equal(log.reasons, want) {
		t.Fatalf("refusals counted %q, want %q", log.reasons, want)
	}
}
