package session

import "context"

// lenderKey is the context key of the lender WithLender attaches.
type lenderKey struct{}

// WithLender returns a copy of ctx that carries lend. The Service runs
// each long wait of a call made with that context (an expensive AI move,
// which may wait for a worker of the AI pool and then searches) as
// lend(wait) instead of calling wait itself. lend must call wait once and
// return after it returned. A caller that handles requests on a fixed set
// of workers passes a lend that has another worker take the caller's
// place meanwhile, so that long waits never hold the workers that small
// games and commands need.
func WithLender(ctx context.Context, lend func(wait func())) context.Context {
	return context.WithValue(ctx, lenderKey{}, lend)
}

// Lend runs wait, a call that may block for long, through the lender ctx
// carries (see WithLender), or directly when it carries none.
func Lend(ctx context.Context, wait func()) {
	if lend, ok := ctx.Value(lenderKey{}).(func(func())); ok && lend != nil {
		lend(wait)
		return
	}
	wait()
}
