package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// InboxItem is a platform update the bot received but has not finished
// handling: its platform's id and its raw bytes.
type InboxItem struct {
	ID   int64
	Data []byte
}

// ClaimTTL is how long an update kept by one process (a replica) is left
// to it after its claim was made or last renewed (Reclaim): a copy
// delivered to another process meanwhile is not handled there, and no
// other process takes it over. A process that lives renews its claims
// well within it; one that died leaves them to expire.
const ClaimTTL = 90 * time.Second

// Receive keeps updates of platform p in the store, in one commit, so
// that an update the platform was told was delivered survives a crash
// until Handled removes it. Fronts call it before they confirm
// delivery to the platform, and take over what a stop left (Reclaim) at
// start. It returns the ids of the items that were handled already
// (within Config.UpdateTTL), done, and of those that another live process
// sharing the store keeps and is handling, held: neither is kept again,
// nor to be handled here.
func (s *Service) Receive(ctx context.Context, p Platform, items []InboxItem) (done, held []int64, err error) {
	if len(items) == 0 {
		return nil, nil, nil
	}
	now := s.now()
	err = s.received.do(receivedItems{p, items}, s.groupSize(3*len(items)), func(groups []receivedItems) []error {
		return s.receiveNew(ctx, groups, now)
	})
	if err == nil || !errors.Is(err, kv.ErrConflict) {
		if err != nil {
			return nil, nil, fmt.Errorf("session: receive %d %s updates: %w", len(items), p, err)
		}
		return nil, nil, nil
	}
	err = s.kv.Update(ctx, func(kt kv.Tx) error {
		tx := layout{kt}
		done, held = done[:0], held[:0]
		keys := make([]kv.Key, 0, 2*len(items))
		for _, it := range items {
			keys = append(keys, kv.Key{Bucket: bucketUpdates, Key: updateMarkKey(p, inboxMarkID(it.ID))},
				kv.Key{Bucket: bucketInbox, Key: inboxKey(p, it.ID)})
		}
		tx.fetch(keys)
		for _, it := range items {
			_, handled, err := tx.UpdateMark(p, inboxMarkID(it.ID))
			if err != nil {
				return err
			}
			if handled {
				done = append(done, it.ID)
				continue
			}
			holder, at, claimed, err := tx.InboxClaim(p, it.ID)
			if err != nil {
				return err
			}
			if claimed && s.heldElsewhere(holder, at, now) {
				held = append(held, it.ID)
				continue
			}
			if err := tx.PutInbox(p, it, s.holder, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("session: receive %d %s updates: %w", len(items), p, err)
	}
	return done, held, nil
}

// heldElsewhere reports whether a claim made by holder at time at keeps
// an update from this process at time now: the claim of another process
// that shares the store and renewed it within ClaimTTL. On a store no
// other process shares, another holder is a process that stopped.
func (s *Service) heldElsewhere(holder uint64, at, now time.Time) bool {
	return holder != s.holder && s.kv.Shared() && now.Sub(at) < ClaimTTL
}

// Reclaim takes over, for this process, the updates of platform p that
// other processes kept in the inbox and left unfinished: those whose
// claim expired (ClaimTTL: its holder died), those given up (Release),
// those of an earlier release, which have no claim, and, on a store no
// other process shares (kv.Store.Shared), every one another process kept
// (it stopped). It claims them for this process and renews the claims of
// the updates this process keeps, and returns the ones it took, lowest
// id first, with those this process keeps and is not handling (handling
// reports which it is; nil means none): a handling that failed, or whose
// end (Handled) failed to commit, is tried again. A front calls it at
// start and then well within every ClaimTTL, and handles what it
// returns; processes that call it at once take each update once.
func (s *Service) Reclaim(ctx context.Context, p Platform, handling func(id int64) bool) ([]InboxItem, error) {
	wrote, err := s.reclaim(ctx, p, func(it keptItem, now time.Time) (uint64, time.Time, bool) {
		if it.claimed && s.heldElsewhere(it.holder, it.at, now) {
			return 0, time.Time{}, false
		}
		return s.holder, now, true
	})
	if err != nil {
		return nil, fmt.Errorf("session: reclaim %s updates: %w", p, err)
	}
	var taken []InboxItem
	for _, it := range wrote {
		if !it.claimed || it.holder != s.holder || handling == nil || !handling(it.ID) {
			taken = append(taken, it.InboxItem)
		}
	}
	return taken, nil
}

// Release gives up the claims of this process on the updates of platform
// p it kept and did not finish, so that another process sharing the
// store takes them over at once (Reclaim, or Receive of a copy) rather
// than after ClaimTTL. A front calls it when it stops.
func (s *Service) Release(ctx context.Context, p Platform) error {
	_, err := s.reclaim(ctx, p, func(it keptItem, _ time.Time) (uint64, time.Time, bool) {
		return 0, time.Unix(0, 0), it.claimed && it.holder == s.holder
	})
	if err != nil {
		return fmt.Errorf("session: release %s updates: %w", p, err)
	}
	return nil
}

// reclaim gives the updates of platform p the claims that claim returns
// (holder, time, and false to leave an update as it is), a commit's worth
// at a time, and returns the updates it wrote, lowest id first, with the
// claims they had.
func (s *Service) reclaim(ctx context.Context, p Platform, claim func(it keptItem, now time.Time) (uint64, time.Time, bool)) ([]keptItem, error) {
	var all []keptItem
	done := map[int64]bool{}
	limit := s.groupSize(2)
	for {
		var wrote []keptItem
		more := false
		err := s.kv.Update(ctx, func(kt kv.Tx) error {
			tx := layout{kt}
			wrote, more = wrote[:0], false
			kept, err := tx.InboxClaims(p)
			if err != nil {
				return err
			}
			now := s.now()
			for _, it := range kept {
				if done[it.ID] {
					continue
				}
				holder, at, ok := claim(it, now)
				if !ok {
					continue
				}
				if len(wrote) == limit {
					more = true
					break
				}
				if err := tx.PutInbox(p, it.InboxItem, holder, at); err != nil {
					return err
				}
				wrote = append(wrote, it)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, it := range wrote {
			done[it.ID] = true
		}
		all = append(all, wrote...)
		if !more {
			return all, nil
		}
	}
}

// receivedItems are updates of a platform to keep.
type receivedItems struct {
	p     Platform
	items []InboxItem
}

// receiveNew keeps and claims the updates of the groups in one commit,
// assuming what is almost always so: that none was handled (marked) or
// kept before. It commits without reading; when one was, it fails with
// kv.ErrConflict, writing nothing, for every group, and Receive then
// reads and decides update by update.
func (s *Service) receiveNew(ctx context.Context, groups []receivedItems, now time.Time) []error {
	t := s.kv.Begin(ctx)
	tx := layout{t}
	errs := make([]error, len(groups))
	seen := make(map[string]bool)
	err := func() error {
		for i, g := range groups {
			if dup(seen, g) {
				// The same update came twice at once: the copy
				// decides alone, after this commit.
				errs[i] = kv.ErrConflict
				continue
			}
			for _, it := range g.items {
				t.AssumeAbsent(bucketUpdates, updateMarkKey(g.p, inboxMarkID(it.ID)))
				t.AssumeAbsent(bucketInbox, inboxKey(g.p, it.ID))
				if err := tx.PutInbox(g.p, it, s.holder, now); err != nil {
					return err
				}
			}
		}
		return t.Commit(ctx)
	}()
	for i := range errs {
		if errs[i] == nil {
			errs[i] = err
		}
	}
	return errs
}

// dup says whether an update of g is in seen, or in g twice, and adds
// g's to seen.
func dup(seen map[string]bool, g receivedItems) bool {
	d := false
	for _, it := range g.items {
		k := string(inboxKey(g.p, it.ID))
		d = d || seen[k]
		seen[k] = true
	}
	return d
}

// Binding says that a message shows a game: the message a front sent
// for it, to be edited by later actions on the game.
type Binding struct {
	Game    GameID
	Message string
}

// Finished is an update handled to its end, as Handled records it.
type Finished struct {
	// Update is the update's id.
	Update string
	// Marked says that a change the update made recorded it handled
	// already (Turn.Marked), so that its mark need not be written again.
	Marked bool
	// Binds are the messages its boards were posted in, to bind to their
	// games.
	Binds []Binding
}

// Handled records that update f.Update of platform p was handled to its
// end (its messages are out): it leaves the inbox when it is there (id in
// decimal, as Receive keeps it), it is marked handled unless f.Marked
// says it is, so that Receive drops it when it comes again, and the
// games of f.Binds are bound to their messages, all in one commit. It
// reads nothing but the games it binds, so that it commits without a
// round trip to read. Handling one that is not in the inbox is no error.
//
// Calls made while another's commit is in progress are committed
// together in the next one (group commit), so that a busy bot pays one
// transaction for many updates; each call returns once its own update is
// committed, with its own error.
func (s *Service) Handled(ctx context.Context, p Platform, f Finished) error {
	return s.handled.do(handledItem{p, f}, s.groupSize(12), func(items []handledItem) []error {
		return s.commitHandled(ctx, items)
	})
}

// handledItem is an update of a platform handled to its end.
type handledItem struct {
	p Platform
	f Finished
}

// groupSize returns how many items one group commit takes: as many as
// the store's transactions hold, an item reading and writing up to ops
// keys, and at most 64.
func (s *Service) groupSize(ops int) int {
	if m := s.kv.MaxOps(); m > 0 {
		return max(1, min(64, m/ops))
	}
	return 64
}

// commitHandled commits the items in one transaction and returns each
// one's result; when the group fails, each is committed again alone, so
// that one bad binding fails only its own call.
func (s *Service) commitHandled(ctx context.Context, items []handledItem) []error {
	now := s.now()
	run := func(items []handledItem) error {
		return s.kv.Update(ctx, func(kt kv.Tx) error {
			tx := layout{kt}
			for _, c := range items {
				if inbox, ok := inboxID(c.f.Update); ok {
					if err := tx.DeleteInbox(c.p, inbox); err != nil {
						return err
					}
				}
				if !c.f.Marked {
					if err := tx.markHandled(c.p, c.f.Update, now); err != nil {
						return err
					}
				}
				if err := bind(tx, now, c.f.Binds); err != nil {
					return err
				}
			}
			return nil
		})
	}
	errs := make([]error, len(items))
	err := run(items)
	for i, c := range items {
		if err != nil && len(items) > 1 {
			errs[i] = wrapHandled(c, run([]handledItem{c}))
		} else {
			errs[i] = wrapHandled(c, err)
		}
	}
	return errs
}

// wrapHandled names the update in err, when it is not nil.
func wrapHandled(c handledItem, err error) error {
	if err != nil {
		return fmt.Errorf("session: handled %s update %s: %w", c.p, c.f.Update, err)
	}
	return nil
}

// Bind binds the games of binds to their messages, in one commit, outside
// any update: for the messages a front sent to show games.
func (s *Service) Bind(ctx context.Context, binds ...Binding) error {
	if len(binds) == 0 {
		return nil
	}
	now := s.now()
	err := s.kv.Update(ctx, func(kt kv.Tx) error { return bind(layout{kt}, now, binds) })
	if err != nil {
		return fmt.Errorf("session: bind %d messages: %w", len(binds), err)
	}
	return nil
}

// bind records in tx that each binding's message shows its game; a game
// bound to that message already is left as it is.
func bind(tx layout, now time.Time, binds []Binding) error {
	for _, b := range binds {
		g, err := tx.Game(b.Game)
		if err != nil {
			return err
		}
		if g.Message == b.Message {
			continue
		}
		g.Message, g.Version, g.Updated = b.Message, g.Version+1, now
		if err := tx.PutGame(g); err != nil {
			return err
		}
	}
	return nil
}

// inboxID returns the inbox id of an update id: the update id in
// canonical decimal, which Receive keeps updates under.
func inboxID(id string) (int64, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil && strconv.FormatInt(n, 10) == id
}

// inboxMarkID returns the update id of an inbox item as Request.Update
// and Handled take it: in decimal.
func inboxMarkID(id int64) string { return strconv.FormatInt(id, 10) }

// Pending returns the updates of platform p received but not handled,
// lowest id first: what a crash interrupted.
func (s *Service) Pending(ctx context.Context, p Platform) ([]InboxItem, error) {
	var items []InboxItem
	err := s.kv.View(ctx, func(tx kv.Tx) error {
		var err error
		items, err = layout{tx}.Inbox(p)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("session: pending %s updates: %w", p, err)
	}
	return items, nil
}

// errLead tells a call waiting in a group that it leads the next commit.
var errLead = errors.New("session: lead the next group commit")

// group commits the items of calls that arrive while a commit of the
// group is in progress together, in the next commit (group commit), so
// that a busy bot pays one transaction for many of them. The zero value
// is ready to use.
type group[T any] struct {
	mu      sync.Mutex
	queue   []*groupCall[T]
	leading bool
}

// groupCall is one call waiting for its commit.
type groupCall[T any] struct {
	item T
	done chan error
}

// do commits item with those of the calls waiting with it, up to max in
// one commit, and returns its own result. commit commits a group's items
// and returns each one's result, in order.
func (g *group[T]) do(item T, max int, commit func(items []T) []error) error {
	c := &groupCall[T]{item: item, done: make(chan error, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if g.leading {
		g.mu.Unlock()
		if err := <-c.done; err != errLead {
			return err
		}
		g.mu.Lock()
	}
	// This call leads, and is first in the queue: commit a group from
	// there, then hand the lead to the first call left.
	g.leading = true
	n := min(max, len(g.queue))
	calls := slices.Clone(g.queue[:n])
	g.queue = slices.Delete(g.queue, 0, n)
	g.mu.Unlock()
	items := make([]T, len(calls))
	for i, call := range calls {
		items[i] = call.item
	}
	for i, err := range commit(items) {
		calls[i].done <- err
	}
	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].done <- errLead
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	return <-c.done
}
