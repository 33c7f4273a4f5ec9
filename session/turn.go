package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

// Request says who a Turn acts for and how it reaches back to its
// caller.
type Request struct {
	// Actor is who acts, and where.
	Actor Actor
	// Update names the platform update the turn handles, "" for none.
	// Every change the turn commits records the update as handled in the
	// same commit, and a change under another handling of the same update
	// (a second delivery, a replay after a crash) is refused with
	// ErrDuplicate instead of taking effect again.
	Update string
	// Game is the game the request is about when the caller knows it up
	// front (a tap's): it is read together with the turn's first reads.
	Game GameID
	// Think, when set, is how the turn waits for an AI search that takes
	// its think time (Expensive): the turn calls Think(wait) instead of
	// wait(), and Think must call wait once and return after it returned.
	// It is the hook through which a front shows that the answer takes a
	// while (Telegram's "typing…", Discord's deferral) and frees the
	// worker it handles the request on. It runs on the goroutine of the
	// Turn's call, before the wait for a worker of the AI pool.
	Think func(wait func())
}

// Turn is one request's work on the store: what it reads and the change
// it makes commit as one optimistic transaction (kv.Store.Begin). The
// turn reads what the request needs (the user's and the chat's
// settings, the game, the update's mark) in one request to the store,
// decides, lets the AI think with nothing held in the store, and commits
// with a compare on everything it read. When something read changed
// meanwhile (another replica's move), the change reads again and decides
// again; a search already made for the same position is not made again.
//
// The games the turn shows without changing them (See) and the messages
// it binds games to (Bind) are written with its next commit, or by Done.
// A Turn is for one goroutine; get one with Service.Begin.
type Turn struct {
	s        *Service
	ctx      context.Context
	req      Request
	handling uint64
	// txn is the open transaction: nil before the first read and after
	// each commit.
	txn kv.Txn
	// focus holds the games the turn put on screen, by user of the
	// actor's chat; binds the messages games are to be bound to. Both
	// are written with the next commit. onScreen holds what the store
	// has, as the turn wrote or read it, so that showing it again
	// writes nothing.
	focus    map[string]GameID
	binds    map[GameID]string
	onScreen map[string]GameID
	// replies are the AI's moves (and hints) found in this turn, by
	// position, so that a change run again after a conflict does not
	// search again.
	replies map[string]engine.Point
	// marked says a commit of the turn recorded its update handled.
	marked bool
}

// Begin starts the turn of a request. It reaches the store only when the
// turn reads.
func (s *Service) Begin(ctx context.Context, r Request) *Turn {
	return &Turn{s: s, ctx: ctx, req: r, handling: handlings.Add(1)}
}

// Actor returns who the turn acts for.
func (t *Turn) Actor() Actor { return t.req.Actor }

// tx returns the turn's open transaction, beginning one when none is:
// its first read fetches, in one request, what most turns read (the
// update's mark, the game named up front, the user's and the chat's
// settings, the user's focus).
func (t *Turn) tx() layout {
	if t.txn != nil {
		return layout{t.txn}
	}
	t.txn = t.s.kv.Begin(t.ctx)
	who := t.req.Actor
	var keys []kv.Key
	if t.req.Update != "" {
		keys = append(keys, kv.Key{Bucket: bucketUpdates, Key: updateMarkKey(who.Platform, t.req.Update)})
	}
	if t.req.Game != "" {
		keys = append(keys, kv.Key{Bucket: bucketGames, Key: []byte(t.req.Game)})
	}
	if who.User.ID != "" {
		keys = append(keys,
			kv.Key{Bucket: bucketUserSettings, Key: platformKey(who.Platform, who.User.ID)},
			kv.Key{Bucket: bucketChatSettings, Key: platformKey(who.Platform, who.Chat)},
			kv.Key{Bucket: bucketFocus, Key: userKey(who.Platform, who.Chat, who.User.ID)})
	}
	if len(keys) > 0 {
		// What these reads return is remembered by the transaction; a
		// failure here fails the read that needs the key.
		t.txn.GetAll(keys)
	}
	return layout{t.txn}
}

// retries is how many times a change runs again after conflicts before
// it waits a little between runs, so that writers on the same keys stop
// colliding.
const retries = 2

// conflicted reports whether err is a conflict at commit, after which
// the change reads again and decides again; it drops the transaction and,
// after the first few conflicts, waits a moment at random.
func (t *Turn) conflicted(err error, attempt int) bool {
	if !errors.Is(err, kv.ErrConflict) || t.ctx.Err() != nil {
		return false
	}
	t.txn = nil
	if attempt >= retries {
		d := time.Duration(rand.N(int64(min(attempt, 20)))+1) * time.Millisecond
		select {
		case <-t.ctx.Done():
			return false
		case <-time.After(d):
		}
	}
	return true
}

// commit writes what write writes (nil: nothing), the mark of the
// turn's update naming game, and what the turn showed, and commits the
// turn's transaction. It returns ErrDuplicate when another handling of
// the update took effect first, and an error wrapping kv.ErrConflict
// when something read changed: the caller then reads and decides again.
func (t *Turn) commit(game GameID, write func(layout) error) error {
	lt := t.tx()
	err := t.markUpdate(lt, game)
	if err == nil && write != nil {
		err = write(lt)
	}
	if err == nil {
		err = t.writeShown(lt)
	}
	if err != nil {
		t.txn = nil
		return err
	}
	start := time.Now()
	err = t.txn.Commit(t.ctx)
	t.txn = nil
	if err != nil {
		return err
	}
	t.s.observer.Committed(time.Since(start))
	t.committedShown()
	t.marked = t.marked || t.req.Update != ""
	return nil
}

// Marked reports whether a change of the turn committed the mark of its
// update (Request.Update), which records it handled: what Handled needs
// not write again (Finished.Marked).
func (t *Turn) Marked() bool { return t.marked }

// committedShown records that what the turn showed is stored now.
func (t *Turn) committedShown() {
	for user, id := range t.focus {
		if t.onScreen == nil {
			t.onScreen = map[string]GameID{}
		}
		t.onScreen[user] = id
	}
	t.focus, t.binds = nil, nil
}

// commitGame stores g as its next version, with the turn's other writes
// (commit), and returns its view. was is the status g was loaded with:
// when g ended since, its result goes into the players' stats in the
// same commit. also, when set, writes more in the same commit. The game
// goes on screen for the actor (See).
func (t *Turn) commitGame(g *Game, b *engine.Board, was Status, also func(layout) error) (View, error) {
	if m, ok := t.binds[g.ID]; ok {
		g.Message = m
		delete(t.binds, g.ID)
	}
	// A new game (version 0) is stored as version 1, updated when it
	// was created.
	g.Version++
	if g.Version > 1 {
		g.Updated = t.s.now()
	}
	if g.Status.Over() {
		g.Deadline, g.UndoAsk, g.Hint = time.Time{}, engine.Empty, nil
	}
	ended := g.Status.Over() && !was.Over()
	t.seeGame(g)
	err := t.commit(g.ID, func(lt layout) error {
		if err := lt.PutGame(*g); err != nil {
			return err
		}
		if ended {
			if err := countResult(lt, g); err != nil {
				return err
			}
		}
		if also != nil {
			return also(lt)
		}
		return nil
	})
	if err != nil {
		return View{}, err
	}
	return newView(g, b), nil
}

// markUpdate records in lt that the turn's update took effect, on game
// when there is one, and returns ErrDuplicate when another handling of
// the update already did. A turn with no update marks nothing.
func (t *Turn) markUpdate(lt layout, game GameID) error {
	if t.req.Update == "" {
		return nil
	}
	p, id := t.req.Actor.Platform, t.req.Update
	m, ok, err := lt.UpdateMark(p, id)
	if err != nil {
		return err
	}
	switch {
	case ok && m.Handling != t.handling:
		return fmt.Errorf("session: %s update %s: %w", p, id, ErrDuplicate)
	case ok:
		// An earlier change of this same turn (an expiry before the
		// action): the mark stays, naming the latest game.
		m.Game = game
	default:
		m = UpdateMark{Handling: t.handling, At: t.s.now(), Game: game}
	}
	return lt.PutUpdateMark(p, id, m)
}

// duplicate returns ErrDuplicate, with a view of the game the update
// changed (the zero View when none), when another handling of the
// turn's update already took effect, and a zero View and nil otherwise.
// Changes call it first.
func (t *Turn) duplicate() (View, error) {
	if t.req.Update == "" {
		return View{}, nil
	}
	p, id := t.req.Actor.Platform, t.req.Update
	lt := t.tx()
	m, ok, err := lt.UpdateMark(p, id)
	switch {
	case err != nil:
		return View{}, fmt.Errorf("session: %s update %s: %w", p, id, err)
	case !ok || m.Handling == t.handling:
		return View{}, nil
	}
	err = fmt.Errorf("session: %s update %s: %w", p, id, ErrDuplicate)
	if m.Game == "" {
		return View{}, err
	}
	g, gerr := lt.Game(m.Game)
	if gerr != nil {
		return View{}, err
	}
	v, verr := t.s.view(&g)
	if verr != nil {
		return View{}, err
	}
	return v, err
}

// verdict completes an action of the turn that returned *shown and
// *errp. A refusal of a turn handling an update is checked against the
// update's mark read afresh: when another handling of the update took
// effect meanwhile (the turn read the mark before that handling's commit
// and the game after it), the refusal becomes ErrDuplicate, shown with
// that handling's game, as a turn that began later would have found.
// Refusals are then counted (Observer.Refused). Exported actions defer
// it.
func (t *Turn) verdict(shown *View, errp *error) {
	if *errp == nil {
		return
	}
	if t.req.Update != "" && Reason(*errp) != "" {
		t.txn = nil
		if v, err := t.duplicate(); errors.Is(err, ErrDuplicate) {
			*shown, *errp = v, err
		}
	}
	if r := Reason(*errp); r != "" {
		t.s.observer.Refused(t.req.Actor.Platform, r)
	}
}

// See records that the actor has game v on screen: it becomes the game
// their typed moves go to (Focus), written with the turn's next commit
// or by Done. Games of another chat, and games the actor does not play,
// change nothing.
func (t *Turn) See(v View) { t.seeGame(&v.g) }

// seeGame puts g on screen for the actor and, for a duel that was just
// accepted (no move yet), for both its players.
func (t *Turn) seeGame(g *Game) {
	who := t.req.Actor
	if g.Platform != who.Platform || g.Chat != who.Chat {
		return
	}
	users := []User{who.User}
	if g.Status == Running && g.MoveNo() == 0 {
		users = []User{g.Seats[0].User, g.Seats[1].User}
	}
	for _, u := range users {
		if u.ID == "" || g.SideOf(u.ID) == engine.Empty || t.onScreen[u.ID] == g.ID {
			continue
		}
		if t.focus == nil {
			t.focus = map[string]GameID{}
		}
		t.focus[u.ID] = g.ID
	}
}

// Bind records that message shows game id, so that later typed moves and
// commands edit it; it is written with the turn's next commit (in the
// game's own record when that commit changes the game) or by Done. It is
// no effect of the turn's update.
func (t *Turn) Bind(id GameID, message string) {
	if t.binds == nil {
		t.binds = map[GameID]string{}
	}
	t.binds[id] = message
}

// writeShown writes in lt the focus and the message bindings the turn
// recorded and that differ from what is stored.
func (t *Turn) writeShown(lt layout) error {
	who := t.req.Actor
	for user, id := range t.focus {
		was, err := lt.Focus(who.Platform, who.Chat, user)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err != nil || was != id {
			if err := lt.PutFocus(who.Platform, who.Chat, user, id); err != nil {
				return err
			}
		}
	}
	for id, message := range t.binds {
		g, err := lt.Game(id)
		if err != nil {
			return err
		}
		if g.Message == message {
			continue
		}
		g.Message, g.Version, g.Updated = message, g.Version+1, t.s.now()
		if err := lt.PutGame(g); err != nil {
			return err
		}
	}
	return nil
}

// Done writes what the turn showed and has not written yet (See, Bind):
// nothing when its last commit wrote it, or when it is stored already.
func (t *Turn) Done() error {
	for attempt := 0; len(t.focus) > 0 || len(t.binds) > 0; attempt++ {
		lt := t.tx()
		err := t.writeShown(lt)
		if err == nil {
			err = t.txn.Commit(t.ctx)
		}
		if err == nil {
			t.txn = nil
			t.committedShown()
			return nil
		}
		if !t.conflicted(err, attempt) {
			return fmt.Errorf("session: show games: %w", err)
		}
	}
	return nil
}

// game returns the game with the id, read in the turn's transaction.
func (t *Turn) game(id GameID) (Game, error) { return t.tx().Game(id) }

// loadFor reads a game for the actor: a game of another platform or chat
// is reported as not found.
func (t *Turn) loadFor(id GameID) (Game, error) {
	g, err := t.game(id)
	who := t.req.Actor
	if err == nil && (g.Platform != who.Platform || g.Chat != who.Chat) {
		return Game{}, fmt.Errorf("session: game %q in %s chat %q: %w", id, who.Platform, who.Chat, ErrNotFound)
	}
	return g, err
}

// loadInPlay loads game id for an action (named what in errors) that the
// actor takes at move moveNo, with the game's lock held by the caller. It
// refuses another handling of the same update (ErrDuplicate), ends a game
// past its deadline (ErrExpired), and refuses a game not running
// (ErrNotStarted, ErrGameOver), someone who does not play it
// (ErrNotAPlayer) and a stale move number (ErrStale). It returns the game
// and the player's side, or the view to show with the error.
func (t *Turn) loadInPlay(id GameID, moveNo int, what string) (Game, engine.Stone, View, error) {
	if v, err := t.duplicate(); err != nil {
		return Game{}, engine.Empty, v, err
	}
	g, err := t.loadFor(id)
	if err != nil {
		return Game{}, engine.Empty, View{}, err
	}
	if v, err := t.expireIfDue(&g); err != nil {
		return Game{}, engine.Empty, v, err
	}
	who := t.req.Actor
	me := g.SideOf(who.User.ID)
	switch {
	case g.Status == Open:
		err = fmt.Errorf("session: %s in game %s: %w", what, g.ID, ErrNotStarted)
	case g.Status.Over():
		err = fmt.Errorf("session: %s in game %s: %w", what, g.ID, ErrGameOver)
	case me == engine.Empty:
		err = fmt.Errorf("session: %s in game %s by %q: %w", what, g.ID, who.User.ID, ErrNotAPlayer)
	case moveNo != g.MoveNo():
		err = fmt.Errorf("session: %s in game %s: move %d, game is at %d: %w", what, g.ID, moveNo, g.MoveNo(), ErrStale)
	}
	if err != nil {
		return Game{}, engine.Empty, View{}, err
	}
	return g, me, View{}, nil
}

// position names the position of g, for the AI's replies found in a
// turn: the game and its moves.
func position(g *Game, kind string) string {
	b := []byte(kind + "\x00" + string(g.ID) + "\x00" + strconv.FormatUint(g.Seed, 36))
	for _, p := range g.Moves {
		b = append(b, byte(p.X), byte(p.Y))
	}
	return string(b)
}

// search returns the move that find finds for position pos (see
// position): found once per turn, so that a change run again after a
// conflict does not search again. An expensive search (see Expensive)
// goes through the AI pool, waiting through the request's Think
// hook; the pool's worker is free again when search returns.
func (t *Turn) search(pos string, expensive bool, find func() (engine.Point, error)) (engine.Point, error) {
	if p, ok := t.replies[pos]; ok {
		return p, nil
	}
	var p engine.Point
	var err error
	if !expensive {
		p, err = find()
	} else if perr := t.s.pool.run(t.ctx, t.req.Think, func() { p, err = find() }); perr != nil {
		return engine.Point{}, perr
	}
	if err != nil {
		return engine.Point{}, err
	}
	if t.replies == nil {
		t.replies = map[string]engine.Point{}
	}
	t.replies[pos] = p
	return p, nil
}

// playAI plays the AI's move when the game goes on and the AI is to move.
// Its random choices come from the game's seed and the move number, so a
// game replays exactly.
func (t *Turn) playAI(g *Game, b *engine.Board) error {
	if g.Status.Over() || !g.Seat(g.ToMove()).IsAI() {
		return nil
	}
	seat := g.Seat(g.ToMove())
	p, err := t.search(position(g, "ai"), Expensive(seat.Strength(), g.Rules), func() (engine.Point, error) {
		return t.s.think(t.ctx, g, b, seat)
	})
	if err != nil {
		return fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	return t.s.play(g, b, p)
}

// nopObserver is the Observer of a Service configured without one.
type nopObserver struct{}

func (nopObserver) Moved(Platform, bool) {}

func (nopObserver) Refused(Platform, string) {}

func (nopObserver) Thought(engine.Level, engine.Rules, time.Duration) {}

func (nopObserver) Committed(time.Duration) {}

// keyedMutex hands out one mutex per key, created on demand and dropped
// when no one holds or waits for it.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*refMutex
}

type refMutex struct {
	sync.Mutex
	refs int
}

// lock locks the mutex of key and returns the function that unlocks it.
func (k *keyedMutex) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[string]*refMutex)
	}
	m := k.locks[key]
	if m == nil {
		m = &refMutex{}
		k.locks[key] = m
	}
	m.refs++
	k.mu.Unlock()

	m.Lock()
	return func() {
		m.Unlock()
		k.mu.Lock()
		if m.refs--; m.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}

// DefaultAIQueue is how many expensive AI moves may wait for a worker by
// default.
const DefaultAIQueue = 64

// cheapCells is the largest board, in cells, on which every level answers
// at once: the engine solves such boards outright (3×3 and 4×4), so their
// moves never wait in the AI pool.
const cheapCells = 16

// Expensive reports whether the AI move at rung s of the strength ladder
// on rules r is a search that takes its think time, and so goes through
// the AI pool: hard's, on boards larger than 4×4. The rungs below it
// answer at once on any board (those that search stop within 10,000
// nodes), and hard solves small boards. It is the one answer to "may the AI think
// long?": a Turn calls its Request.Think hook exactly for such searches.
func Expensive(s engine.Rung, r engine.Rules) bool {
	return s == engine.Rungs && r.Cells() > cheapCells
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

// Lang returns the language to answer the actor in: their override, else
// the chat's language, else "" (the client's locale).
func (t *Turn) Lang() (string, error) { return t.LangOf(t.req.Actor.User.ID) }

// LangOf returns the language the user with the id has chosen on the
// turn's platform, else the language of the turn's chat, else "".
func (t *Turn) LangOf(userID string) (string, error) {
	who := t.req.Actor
	lt := t.tx()
	us, err := lt.UserSettings(who.Platform, userID)
	if err != nil || us.Lang != "" {
		return us.Lang, err
	}
	cs, err := lt.ChatSettings(who.Platform, who.Chat)
	return cs.Lang, err
}
