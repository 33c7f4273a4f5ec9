package engine

import (
	"context"
	"time"
)

// DefaultThinkTime is how long hard thinks per move when
// Options.ThinkTime is zero.
const DefaultThinkTime = time.Second

// limits decides when a search stops: the caller's context, a node budget
// (which makes the search reproducible), or a time budget with a soft
// point after which no new iteration starts.
type limits struct {
	ctx      context.Context
	maxNodes int64     // 0: no node budget
	soft     time.Time // zero with a node budget
	hard     time.Time
	start    time.Time     // when the move began, zero with a node budget
	think    time.Duration // the whole time budget, zero with a node budget
}

// softShare is how much of a time budget may pass, in tenths, before no
// new iteration starts. Six (from four) beat the version before it 54.9%
// over 400 self-play games at 500 ms a move (95% 50.0–59.7). Since open
// boards play the best move of an iteration the clock cuts short (see
// searcher.best), an iteration started late is no longer wasted, and ten
// (new iterations until the budget is spent) with that rule beat six
// without it: see the measurements in docs/engine.md.
const softShare = 10

// checkEvery is how many nodes pass between two looks at the clock and
// the context.
const checkEvery = 1024

// newLimits returns the limits for one move starting now.
func newLimits(ctx context.Context, think time.Duration, maxNodes int64) limits {
	l := limits{ctx: ctx, maxNodes: maxNodes}
	if maxNodes <= 0 {
		now := time.Now()
		l.start, l.think = now, think
		l.hard = now.Add(think)
		l.soft = now.Add(think * softShare / 10)
	}
	return l
}

// expired reports whether the search must stop after nodes nodes.
func (l *limits) expired(nodes int64) bool {
	if l.maxNodes > 0 && nodes >= l.maxNodes {
		return true
	}
	if l.ctx.Err() != nil {
		return true
	}
	return !l.hard.IsZero() && time.Now().After(l.hard)
}

// pastSoft reports whether a new iteration should not start after nodes
// nodes: past the soft time point, or past half the node budget.
func (l *limits) pastSoft(nodes int64) bool {
	if l.maxNodes > 0 {
		return nodes >= l.maxNodes/2
	}
	return time.Now().After(l.soft)
}

// share returns the limits of the first part of a search that leaves the
// rest of the budget to a second part: half the nodes, or the time up to
// 2/5 of the budget (the small-board split was measured with it).
func (l limits) share() limits {
	if l.maxNodes > 0 {
		l.maxNodes = max(l.maxNodes/2, 1)
		return l
	}
	if !l.hard.IsZero() {
		now := time.Now()
		l.hard = l.start.Add(l.think * 2 / 5)
		l.soft = now.Add(l.hard.Sub(now) / 2)
	}
	return l
}

// part returns the limits of a side search that may spend at most num/den
// of the whole budget from now on (after nodes nodes), and never more than
// l allows.
func (l limits) part(nodes int64, num, den int) limits {
	if l.maxNodes > 0 {
		l.maxNodes = min(l.maxNodes, nodes+max(l.maxNodes*int64(num)/int64(den), 1))
		return l
	}
	if !l.hard.IsZero() {
		if end := time.Now().Add(l.think * time.Duration(num) / time.Duration(den)); end.Before(l.hard) {
			l.hard = end
		}
	}
	return l
}
