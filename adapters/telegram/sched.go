package telegram

import (
	"context"
	"errors"
	"sync"
)

// errClosed is returned by submit after close.
var errClosed = errors.New("telegram: scheduler closed")

// scheduler runs jobs keyed by chat: jobs of one chat run one at a time in
// the order submitted, jobs of different chats run in parallel on a fixed
// number of workers. A chat waiting for a worker does not hold one, so one
// busy chat never delays the others beyond its own worker. A job that
// blocks for long lends its worker out (see lend), so jobs waiting on
// others never hold the workers either.
type scheduler struct {
	slots chan struct{} // one token per queued or running job: the bound

	mu     sync.Mutex
	cond   *sync.Cond
	chats  map[int64][]func() // chats with queued or running jobs
	ready  []int64            // chats with jobs and no running job, oldest first
	closed bool
	wg     sync.WaitGroup
	// live is the number of worker goroutines, want the number there
	// should be: the workers asked for plus the jobs in lend. A worker
	// that finds live > want retires.
	live, want int
}

// newScheduler starts workers that run at most queue jobs at a time in
// total (queued and running).
func newScheduler(workers, queue int) *scheduler {
	s := &scheduler{slots: make(chan struct{}, queue), chats: map[int64][]func(){}}
	s.cond = sync.NewCond(&s.mu)
	s.mu.Lock()
	s.want = workers
	for range workers {
		s.spawnLocked()
	}
	s.mu.Unlock()
	return s
}

// spawnLocked starts a worker. s.mu must be held.
func (s *scheduler) spawnLocked() {
	s.live++
	s.wg.Add(1)
	go s.work()
}

// lend runs wait, a call of a running job that blocks for long (on a
// shared resource such as the AI pool), and meanwhile has another worker
// run jobs in the job's place: it adds a worker for as long as wait runs,
// and one worker retires once it returned. So the workers running jobs
// that are not blocked stay as many as asked, and the workers in all are
// bounded by the jobs queued and running. lend must be called only from a
// job.
func (s *scheduler) lend(wait func()) {
	s.mu.Lock()
	s.want++
	if s.live < s.want {
		s.spawnLocked()
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.want--
		s.cond.Signal() // an idle worker may retire
		s.mu.Unlock()
	}()
	wait()
}

// submit queues job for chat, waiting while the queue is full. It
// returns ctx's error if ctx ends first, and errClosed after close; in
// both cases the job will not run.
func (s *scheduler) submit(ctx context.Context, chat int64, job func()) error {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		<-s.slots
		return errClosed
	}
	q, busy := s.chats[chat]
	s.chats[chat] = append(q, job)
	if !busy {
		s.ready = append(s.ready, chat)
		s.cond.Signal()
	}
	return nil
}

// work runs jobs until the scheduler is closed and drained, or until it
// is a worker too many.
func (s *scheduler) work() {
	defer s.wg.Done()
	s.mu.Lock()
	for {
		for len(s.ready) == 0 && !s.closed && s.live <= s.want {
			s.cond.Wait()
		}
		if s.live > s.want {
			s.live--
			if len(s.ready) > 0 {
				// The wake-up this worker took may have been meant for
				// a ready chat: pass it on.
				s.cond.Signal()
			}
			s.mu.Unlock()
			return
		}
		if len(s.ready) == 0 {
			s.live--
			s.mu.Unlock()
			return
		}
		chat := s.ready[0]
		s.ready = s.ready[1:]
		job := s.chats[chat][0]
		s.mu.Unlock()

		job()

		s.mu.Lock()
		<-s.slots
		if q := s.chats[chat][1:]; len(q) > 0 {
			s.chats[chat] = q
			s.ready = append(s.ready, chat)
			s.cond.Signal()
		} else {
			delete(s.chats, chat)
		}
	}
}

// close stops accepting jobs and waits until every queued job has run.
func (s *scheduler) close() {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.wg.Wait()
}
