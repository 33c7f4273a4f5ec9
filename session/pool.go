package session

import (
	"context"
	"fmt"
	"runtime"

	"github.com/boardbot/boardbot/engine"
)

// DefaultAIQueue is how many expensive AI moves may wait for a worker by
// default.
const DefaultAIQueue = 64

// cheapCells is the largest board, in cells, on which every level answers
// at once: the engine solves such boards outright (3×3 and 4×4), so their
// moves never wait in the AI pool.
const cheapCells = 16

// Expensive reports whether the AI move of level l on rules r is a search
// that takes its think time, and so goes through the AI pool: hard on
// boards larger than 4×4. Easy and medium answer at once on any board, and
// hard solves small boards. It is the one answer to "may the AI think
// long?": a Turn calls its Request.Think hook exactly for such searches.
func Expensive(l engine.Level, r engine.Rules) bool {
	return l == engine.Hard && r.Cells() > cheapCells
}

// aiPool bounds the expensive AI searches: at most cap(work) run at once,
// and at most cap(admit) are running or waiting. A search that finds the
// waiting room full is refused with ErrBusy instead of queueing without
// bound.
type aiPool struct {
	admit chan struct{}
	work  chan struct{}
	// queued, when set (by tests), is called when a search starts waiting
	// for a worker.
	queued func()
}

// newAIPool returns a pool of workers searches at once (default the
// number of CPUs) with a queue of queue more (default DefaultAIQueue;
// negative means none).
func newAIPool(workers, queue int) *aiPool {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	switch {
	case queue == 0:
		queue = DefaultAIQueue
	case queue < 0:
		queue = 0
	}
	return &aiPool{admit: make(chan struct{}, workers+queue), work: make(chan struct{}, workers)}
}

// run runs search on a worker of the pool: it takes a place, waits for a
// worker while all are busy, runs search, and gives both back. It fails,
// without running search, at once with ErrBusy when the queue is full,
// and with ctx's error when ctx ends while waiting. The wait and the
// search run through think (Request.Think) when it is set, so that the
// caller can show that the answer takes a while and free what it holds;
// a refusal does not, as it does not wait. The waits are thus bounded by
// the pool's places.
func (p *aiPool) run(ctx context.Context, think func(wait func()), search func()) error {
	select {
	case p.admit <- struct{}{}:
	default:
		return fmt.Errorf("session: AI pool: %w", ErrBusy)
	}
	defer func() { <-p.admit }()
	var err error
	wait := func() {
		if err = p.take(ctx); err != nil {
			return
		}
		defer func() { <-p.work }()
		search()
	}
	if think != nil {
		think(wait)
	} else {
		wait()
	}
	return err
}

// take takes a worker, waiting while all are busy, or returns ctx's error
// when ctx ends first.
func (p *aiPool) take(ctx context.Context) error {
	select {
	case p.work <- struct{}{}:
		return nil
	default:
	}
	if p.queued != nil {
		p.queued()
	}
	select {
	case p.work <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
