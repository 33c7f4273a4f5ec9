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
// busy chat never delays the others beyond its own worker.
type scheduler struct {
	slots chan struct{} // one token per queued or running job: the bound

	mu     sync.Mutex
	cond   *sync.Cond
	chats  map[int64][]func() // chats with queued or running jobs
	ready  []int64            // chats with jobs and no running job, oldest first
	closed bool
	wg     sync.WaitGroup
}

// newScheduler starts workers that run at most queue jobs at a time in
// total (queued and running).
func newScheduler(workers, queue int) *scheduler {
	s := &scheduler{slots: make(chan struct{}, queue), chats: map[int64][]func(){}}
	s.cond = sync.NewCond(&s.mu)
	s.wg.Add(workers)
	for range workers {
		go s.work()
	}
	return s
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

// work runs jobs until the scheduler is closed and drained.
func (s *scheduler) work() {
	defer s.wg.Done()
	s.mu.Lock()
	for {
		for len(s.ready) == 0 && !s.closed {
			s.cond.Wait()
		}
		if len(s.ready) == 0 {
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
