package telegram

import (
	"context"
	"sync"
)

// claims are the updates this process has taken in and not finished
// with: an update from its arrival (or replay) until it was handled and
// marked so in the store. A second delivery of a claimed update is not
// queued again. It is safe for concurrent use.
type claims struct {
	mu sync.Mutex
	m  map[int]*claim
}

// claim is one update taken in; kept is closed once its fate in the
// inbox is known, with err nil when it is kept there.
type claim struct {
	kept chan struct{}
	err  error
}

// take claims update id. It returns a new claim and true when nobody held
// it, else the holder's claim and false.
func (c *claims) take(id int) (*claim, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.m[id]; ok {
		return cl, false
	}
	if c.m == nil {
		c.m = make(map[int]*claim)
	}
	cl := &claim{kept: make(chan struct{})}
	c.m[id] = cl
	return cl, true
}

// release drops the claim of update id, if any.
func (c *claims) release(id int) {
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}

// done records whether the claimed update was kept in the inbox (err nil)
// and wakes those waiting for it. It is called once per claim.
func (cl *claim) done(err error) {
	cl.err = err
	close(cl.kept)
}

// wait returns nil once the claimed update is kept in the inbox, the
// error of keeping it when that failed, or ctx's error if ctx ends first.
func (cl *claim) wait(ctx context.Context) error {
	select {
	case <-cl.kept:
		return cl.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
