package telegram

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// queued returns the number of calls waiting in l.
func (l *limiter) queued() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.queue)
}

// TestLimiterHoldsASlotUntilTheAnswer checks that a call's slot counts
// while it is on its way, however long, and frees only after its answer.
func TestLimiterHoldsASlotUntilTheAnswer(t *testing.T) {
	l := newLimiter(Pace{Chat: Rate{1, time.Nanosecond}, Group: Rate{N: -1}, Global: Rate{3, time.Hour}})
	ctx := context.Background()
	release, err := l.wait(ctx, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func(), 1)
	go func() {
		r, err := l.wait(ctx, 1, nil)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	for l.queued() == 0 {
		runtime.Gosched()
	}
	// An hour later the first call is still on its way: no slot.
	l.mu.Lock()
	l.grantLocked(time.Now().Add(time.Hour))
	waiting := len(l.queue)
	l.mu.Unlock()
	if waiting != 1 {
		t.Fatal("a second call went while the first was on its way")
	}
	// Another chat is not held up by it.
	if _, err := l.wait(ctx, 2, nil); err != nil {
		t.Fatal(err)
	}
	release()
	(<-got)()
	// Three calls counted for an hour: a fourth waits until ctx ends.
	short, stop := context.WithCancel(ctx)
	go func() {
		for l.queued() == 0 {
			runtime.Gosched()
		}
		stop()
	}()
	if _, err := l.wait(short, 3, nil); err == nil {
		t.Fatal("the global limit let a third call through")
	}
}
