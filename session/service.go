package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// Config tunes a Service. The zero value means the documented defaults.
type Config struct {
	// Now returns the current time. Default time.Now.
	Now func() time.Time
	// NewSeed returns the seed of a new game's random choices (the AI's
	// moves, a random first player). Default: a random number.
	NewSeed func() uint64
	// NewPlayer returns the AI player of a level. Default: the engine's
	// player with ThinkTime.
	NewPlayer func(l engine.Level, rng *rand.Rand) (engine.Player, error)
	// ThinkTime bounds how long the hard AI searches one move; zero means
	// engine.DefaultThinkTime. Easy and medium answer at once.
	ThinkTime time.Duration
	// ChallengeTTL is how long a duel challenge waits for its opponent.
	// Default 10 minutes.
	ChallengeTTL time.Duration
	// IdleAI is how long a game against the AI may go without a move
	// before it expires. Default 24 hours.
	IdleAI time.Duration
	// TurnLimit is how long a player in a duel has for a move; the player
	// who lets it run out loses. Default 1 hour.
	TurnLimit time.Duration
	// AIWorkers is how many expensive AI searches (hard on boards larger
	// than 4×4) run at once. Default the number of CPUs.
	AIWorkers int
	// AIQueue is how many expensive AI searches may wait for a worker;
	// beyond that a move is refused with ErrBusy. Default DefaultAIQueue;
	// negative means none wait.
	AIQueue int
	// Limits caps live games per user and chat and the rate of
	// challenges. The zero value means no limits.
	Limits Limits
	// Observer hears of moves, refusals, AI think times and commits, for
	// metrics. Default none.
	Observer Observer
	// UpdateTTL is how long the store remembers that a platform update
	// was handled (see WithUpdate), so that the same update delivered
	// again within it takes no second effect. Default DefaultUpdateTTL.
	UpdateTTL time.Duration
	// HistoryKeep is how long finished games stay readable for History
	// and replays: the sweeper forgets older ones with their history
	// entries. Zero keeps them forever.
	HistoryKeep time.Duration
	// OnExpire, when set, is called by Sweep with each game it ended, so
	// that adapters can update the game's message. It runs on Sweep's
	// goroutine, after the change committed.
	OnExpire func(View)
	// OnUnreadable, when set, is called each time a read skips a stored
	// record this release cannot decode (corrupt, or written by a newer
	// release), so that one bad record blocks nothing else: kind is
	// UnreadableGame with the game's id, or UnreadableStats with
	// "platform:user id". It never gets the record's contents, is called
	// again each time the same record is skipped, and must return
	// quickly.
	OnUnreadable func(kind, id string)
}

// The kinds of record Config.OnUnreadable reports.
const (
	UnreadableGame  = "game"
	UnreadableStats = "stats"
)

// The defaults of Config.
const (
	DefaultChallengeTTL = 10 * time.Minute
	DefaultIdleAI       = 24 * time.Hour
	DefaultTurnLimit    = time.Hour
)

// Service starts games, places stones and ends games, committing each
// change to its Store. It is safe for concurrent use.
type Service struct {
	store     Store
	now       func() time.Time
	newSeed   func() uint64
	newPlayer func(engine.Level, *rand.Rand) (engine.Player, error)
	limits    limits
	updateTTL time.Duration
	// historyKeep is Config.HistoryKeep.
	historyKeep time.Duration
	// holder names this Service in the inbox claims of the store, which
	// other processes may share.
	holder    uint64
	onExpire  func(View)
	locks     keyedMutex
	pool      *aiPool
	lim       Limits
	cooldowns cooldowns
	observer  Observer

	// onUnreadable is Config.OnUnreadable, never nil.
	onUnreadable func(kind, id string)
}

// limits are the time limits of live games.
type limits struct{ challenge, idleAI, turn time.Duration }

// New returns a Service on store. A nil cfg means the defaults.
func New(store Store, cfg *Config) *Service {
	if cfg == nil {
		cfg = &Config{}
	}
	s := &Service{store: store, now: cfg.Now, newSeed: cfg.NewSeed, newPlayer: cfg.NewPlayer}
	if s.now == nil {
		s.now = time.Now
	}
	if s.newSeed == nil {
		s.newSeed = rand.Uint64
	}
	if s.newPlayer == nil {
		think := cfg.ThinkTime
		s.newPlayer = func(l engine.Level, rng *rand.Rand) (engine.Player, error) {
			return engine.NewPlayerWith(l, engine.Options{Rand: rng, ThinkTime: think})
		}
	}
	orDefault := func(d, def time.Duration) time.Duration {
		if d <= 0 {
			return def
		}
		return d
	}
	s.limits = limits{
		challenge: orDefault(cfg.ChallengeTTL, DefaultChallengeTTL),
		idleAI:    orDefault(cfg.IdleAI, DefaultIdleAI),
		turn:      orDefault(cfg.TurnLimit, DefaultTurnLimit),
	}
	s.updateTTL = orDefault(cfg.UpdateTTL, DefaultUpdateTTL)
	s.historyKeep = cfg.HistoryKeep
	s.holder = rand.Uint64()
	s.onExpire = cfg.OnExpire
	s.onUnreadable = cfg.OnUnreadable
	if s.onUnreadable == nil {
		s.onUnreadable = func(string, string) {}
	}
	s.pool = newAIPool(cfg.AIWorkers, cfg.AIQueue)
	s.lim = cfg.Limits
	s.observer = cfg.Observer
	if s.observer == nil {
		s.observer = nopObserver{}
	}
	return s
}

// Side says which side a player takes against the AI.
type Side uint8

const (
	// First plays black and moves first.
	First Side = iota
	// Second plays white; the AI moves first.
	Second
	// RandomSide lets the game's seed choose.
	RandomSide
)

// Actor is who acts and where: a user in a chat of a platform. Every
// action is checked against the game's own platform and chat, so a button
// copied into another chat acts on nothing.
type Actor struct {
	Platform Platform
	Chat     string
	User     User
}

// StartRequest asks for a new game against the AI.
type StartRequest struct {
	Rules engine.Rules
	Level engine.Level
	Side  Side
	// Alone is for a chat that is one message (a Telegram inline
	// message): the game starts only when the chat holds no other live
	// game and belongs to the user (see ChatSettings.Owner), else Start
	// gives ErrChatGames, checked in the transaction that stores the game.
	Alone bool
}

// Start begins a game between the user and the AI and, when the AI moves
// first, plays its first move. When the user already has a running game
// against the AI in the chat, Start returns a view of that game with
// ErrAlreadyPlaying. Invalid rules or level give ErrBadRequest. Limits
// give ErrUserGames and ErrChatGames, and a busy AI ErrBusy.
func (s *Service) Start(ctx context.Context, who Actor, req StartRequest) (_ View, err error) {
	defer s.refused(who.Platform, &err)
	if err := req.Rules.Validate(); err != nil {
		return View{}, fmt.Errorf("session: start: %w: %w", ErrBadRequest, err)
	}
	if !req.Level.Valid() {
		return View{}, fmt.Errorf("session: start: %w: level %d", ErrBadRequest, req.Level)
	}
	if who.User.ID == "" {
		return View{}, fmt.Errorf("session: start: %w: no user", ErrBadRequest)
	}
	defer s.lockStart(who.Platform, who.Chat, who.User.ID)()
	if v, err := s.duplicate(ctx); err != nil {
		return v, err
	}
	if v, err := s.runningAI(ctx, who); err != nil {
		return v, err
	}

	g := s.newGame(who, req.Rules, Running)
	human, ai := Seat{User: who.User}, Seat{AI: req.Level}
	g.Seats = [2]Seat{human, ai}
	if pickSide(req.Side, g.Seed) == Second {
		g.Seats = [2]Seat{ai, human}
	}
	var alone func(tx Tx, id GameID) error
	if req.Alone {
		alone = ownChat(who)
	}
	return s.create(ctx, &g, alone)
}

// ownChat returns the check of a game new to a chat that is one message
// (StartRequest.Alone, ChallengeRequest.Alone), run in the transaction
// that stores game id: the chat holds no other live game, and it belongs
// to who — the first user to play there owns it from then on, so that
// nobody else can put a game of theirs on that message, finished games
// or not. It gives ErrChatGames otherwise.
func ownChat(who Actor) func(tx Tx, id GameID) error {
	return func(tx Tx, id GameID) error {
		ids, err := tx.LiveGames(who.Platform, who.Chat)
		if err != nil {
			return err
		}
		for _, other := range ids {
			if other != id {
				return fmt.Errorf("session: start in %s chat %q, which holds game %s: %w", who.Platform, who.Chat, other, ErrChatGames)
			}
		}
		cs, err := tx.ChatSettings(who.Platform, who.Chat)
		if err != nil {
			return err
		}
		switch cs.Owner {
		case who.User.ID:
			return nil
		case "":
			cs.Owner = who.User.ID
			return tx.PutChatSettings(who.Platform, who.Chat, cs)
		}
		return fmt.Errorf("session: start in %s chat %q, which is %q's: %w", who.Platform, who.Chat, cs.Owner, ErrChatGames)
	}
}

// lockStart takes the lock that serialises starting games against the AI
// for one user in one chat, and returns its unlock.
func (s *Service) lockStart(p Platform, chat, userID string) func() {
	return s.locks.lock("start\x00" + string(userKey(p, chat, userID)))
}

// runningAI returns ErrAlreadyPlaying and a view of the user's running
// game against the AI in the chat when there is one, and nil when not. A
// game past its deadline does not count: it is as good as expired, and
// ends when the sweeper or a tap reaches it.
func (s *Service) runningAI(ctx context.Context, who Actor) (View, error) {
	v, err := s.Running(ctx, who)
	switch {
	case err == nil && !v.Deadline().IsZero() && !s.now().Before(v.Deadline()):
		return View{}, nil
	case err == nil:
		return v, fmt.Errorf("session: game %s: %w", v.ID(), ErrAlreadyPlaying)
	case errors.Is(err, ErrNotFound):
		return View{}, nil
	}
	return View{}, err
}

// newGame returns a new game of the actor's chat with its seed and times
// set, but no id and no seats.
func (s *Service) newGame(who Actor, r engine.Rules, st Status) Game {
	now := s.now()
	return Game{
		Platform: who.Platform, Chat: who.Chat, Rules: r, Status: st,
		Seed: s.newSeed(), Created: now, Updated: now, Version: 1,
	}
}

// pickSide resolves RandomSide with the game's seed.
func pickSide(side Side, seed uint64) Side {
	if side == RandomSide {
		return Side(rand.New(rand.NewPCG(seed, 0)).IntN(2))
	}
	return side
}

// create plays the AI's first move when it has black, gives g a new id
// and stores it, together with whatever also does in the same
// transaction (which may be nil) and the mark of the update ctx handles.
func (s *Service) create(ctx context.Context, g *Game, also func(tx Tx, id GameID) error) (View, error) {
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	if err := s.playAI(ctx, g, b); err != nil {
		return View{}, err
	}
	s.touch(g)
	if !g.IsDuel() {
		g.HintLimit = max(0, s.lim.HintsPerGame)
	}
	who := Actor{Platform: g.Platform, Chat: g.Chat, User: g.Seats[0].User}
	if g.Challenger != engine.Empty {
		who.User = g.Seat(g.Challenger).User
	} else if g.Seats[0].IsAI() {
		who.User = g.Seats[1].User
	}
	now, start := s.now(), time.Now()
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := notDuplicate(ctx, tx); err != nil {
			return err
		}
		if err := s.lim.check(tx, who); err != nil {
			return err
		}
		id, err := tx.NewGameID()
		if err != nil {
			return err
		}
		g.ID = id
		if err := tx.PutGame(*g); err != nil {
			return err
		}
		if also != nil {
			if err := also(tx, id); err != nil {
				return err
			}
		}
		return markUpdate(ctx, tx, id, now)
	})
	if err != nil {
		return s.duplicated(ctx, View{}, fmt.Errorf("session: new game: %w", err))
	}
	s.observer.Committed(time.Since(start))
	if g.MoveNo() > 0 {
		s.observer.Moved(g.Platform, true)
	}
	return newView(g, b), nil
}

// touch sets a live game's deadline from now: the challenge's time to
// answer, the turn limit of a duel, or the idle time against the AI.
func (s *Service) touch(g *Game) {
	now := s.now()
	switch {
	case g.Status == Open:
		g.Deadline = now.Add(s.limits.challenge)
	case g.Status.Over():
		g.Deadline = time.Time{}
	case g.IsDuel():
		g.Deadline = now.Add(s.limits.turn)
	default:
		g.Deadline = now.Add(s.limits.idleAI)
	}
}

// PlaceRequest is a tap: a stone at Cell as move number MoveNo of a game.
type PlaceRequest struct {
	Game   GameID
	MoveNo int
	Cell   engine.Point
}

// Place checks the request against the game, plays the stone, lets the AI
// reply when it is the AI's turn, and commits both moves together. Refusals,
// which change nothing: ErrNotFound, ErrGameOver, ErrNotStarted,
// ErrNotAPlayer, ErrStale, ErrNotYourTurn, ErrOffBoard, ErrCellTaken,
// engine.ErrForbidden (in an *engine.FoulError) for Black's forbidden
// point under renju, and ErrBusy when the AI's reply would wait for a full AI pool. A game past
// its deadline is ended as expired and returned with ErrExpired.
func (s *Service) Place(ctx context.Context, who Actor, req PlaceRequest) (_ View, err error) {
	defer s.refused(who.Platform, &err)
	defer s.locks.lock(string(req.Game))()
	g, me, v, err := s.loadInPlay(ctx, who, req.Game, req.MoveNo, "place")
	if err != nil {
		return v, err
	}
	switch {
	case me != g.ToMove():
		return View{}, fmt.Errorf("session: place in game %s by %q: %w", g.ID, who.User.ID, ErrNotYourTurn)
	case !g.Rules.Contains(req.Cell):
		return View{}, fmt.Errorf("session: place %v in game %s: %w", req.Cell, g.ID, ErrOffBoard)
	}
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	if b.At(req.Cell) != engine.Empty {
		return View{}, fmt.Errorf("session: place %v in game %s: %w", req.Cell, g.ID, ErrCellTaken)
	}
	if err := s.play(&g, b, req.Cell); err != nil {
		return View{}, err
	}
	// A move by either player withdraws a pending takeback request.
	g.UndoAsk = engine.Empty
	if err := s.playAI(ctx, &g, b); err != nil {
		return View{}, err
	}
	s.touch(&g)
	v, err = s.commit(ctx, &g, b, Running)
	if err != nil {
		return v, err
	}
	s.observer.Moved(g.Platform, false)
	if g.MoveNo() > req.MoveNo+1 {
		s.observer.Moved(g.Platform, true)
	}
	return v, nil
}

// Resign ends the user's game as a loss for them, or, in a duel where not
// both players have moved yet, as Aborted with no winner. Refusals: ErrNotFound,
// ErrNotStarted (an open challenge: Cancel or Decline it), ErrGameOver,
// ErrNotAPlayer, and ErrExpired with the expired game.
func (s *Service) Resign(ctx context.Context, who Actor, id GameID) (_ View, err error) {
	defer s.refused(who.Platform, &err)
	defer s.locks.lock(string(id))()
	if v, err := s.duplicate(ctx); err != nil {
		return v, err
	}
	g, err := s.loadFor(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	if v, err := s.expireIfDue(ctx, &g); err != nil {
		return v, err
	}
	me := g.SideOf(who.User.ID)
	switch {
	case g.Status == Open:
		return View{}, fmt.Errorf("session: resign game %s: %w", id, ErrNotStarted)
	case g.Status.Over():
		return View{}, fmt.Errorf("session: resign game %s: %w", id, ErrGameOver)
	case me == engine.Empty:
		return View{}, fmt.Errorf("session: resign game %s by %q: %w", id, who.User.ID, ErrNotAPlayer)
	}
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	g.Status, g.Winner = Resigned, me.Opponent()
	if g.abortable() {
		g.Status, g.Winner = Aborted, engine.Empty
	}
	return s.commit(ctx, &g, b, Running)
}

// BindMessage records the id of the message that shows the game's board.
// It is not the effect of an update: an update in ctx (WithUpdate) is
// neither marked nor checked.
func (s *Service) BindMessage(ctx context.Context, id GameID, message string) (View, error) {
	ctx = withoutUpdate(ctx)
	defer s.locks.lock(string(id))()
	g, err := s.load(ctx, id)
	if err != nil {
		return View{}, err
	}
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	g.Message = message
	return s.commit(ctx, &g, b, g.Status)
}

// Game returns a view of the game with the id, or ErrNotFound.
func (s *Service) Game(ctx context.Context, id GameID) (View, error) {
	g, err := s.load(ctx, id)
	if err != nil {
		return View{}, err
	}
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	return newView(&g, b), nil
}

// Running returns the user's running game against the AI in the chat, or
// ErrNotFound (also when that game's record is unreadable).
func (s *Service) Running(ctx context.Context, who Actor) (View, error) {
	return s.gameAt(ctx, func(tx Tx) (GameID, error) { return tx.RunningGame(who.Platform, who.Chat, who.User.ID) })
}

// gameAt returns the game whose id lookup finds in a read transaction. An
// unreadable game is skipped (and reported) like a missing one, so that a
// bad record does not stop the user from starting another game.
func (s *Service) gameAt(ctx context.Context, lookup func(Tx) (GameID, error)) (View, error) {
	var id GameID
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		id, err = lookup(tx)
		return err
	})
	if err != nil {
		return View{}, err
	}
	v, err := s.Game(ctx, id)
	if errors.Is(err, ErrSchema) {
		s.onUnreadable(UnreadableGame, string(id))
		return View{}, fmt.Errorf("session: game %q skipped: %w", id, ErrNotFound)
	}
	return v, err
}

// load reads a game in its own read transaction.
func (s *Service) load(ctx context.Context, id GameID) (Game, error) {
	var g Game
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		g, err = tx.Game(id)
		return err
	})
	return g, err
}

// loadFor reads a game for an actor: a game of another platform or chat
// is reported as not found.
func (s *Service) loadFor(ctx context.Context, who Actor, id GameID) (Game, error) {
	g, err := s.load(ctx, id)
	if err == nil && (g.Platform != who.Platform || g.Chat != who.Chat) {
		return Game{}, fmt.Errorf("session: game %q in %s chat %q: %w", id, who.Platform, who.Chat, ErrNotFound)
	}
	return g, err
}

// play puts the side to move's stone at p on b and records it in g,
// finishing the game when the move won or filled the board.
func (s *Service) play(g *Game, b *engine.Board, p engine.Point) error {
	if err := b.Play(p); err != nil {
		return fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	g.Moves = append(g.Moves, p)
	g.Hint = nil
	switch o := b.Outcome(); o.Status {
	case engine.Won:
		g.Status, g.Winner = Won, o.Winner
	case engine.Draw:
		g.Status = Drawn
	}
	return nil
}

// playAI plays the AI's move when the game goes on and the AI is to move.
// Its random choices come from the game's seed and the move number, so a
// game replays exactly.
func (s *Service) playAI(ctx context.Context, g *Game, b *engine.Board) error {
	if g.Status.Over() || !g.Seat(g.ToMove()).IsAI() {
		return nil
	}
	level := g.Seat(g.ToMove()).AI
	if !Expensive(level, g.Rules) {
		return s.think(ctx, g, b, level)
	}
	var err error
	if perr := s.pool.run(ctx, func() { err = s.think(ctx, g, b, level) }); perr != nil {
		return fmt.Errorf("session: game %s: %w", g.ID, perr)
	}
	return err
}

// think asks the AI of level for its move on b and plays it.
func (s *Service) think(ctx context.Context, g *Game, b *engine.Board, level engine.Level) error {
	ai, err := s.newPlayer(level, rand.New(rand.NewPCG(g.Seed, uint64(g.MoveNo()))))
	if err != nil {
		return fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	start := time.Now()
	p, err := ai.Move(ctx, b)
	s.observer.Thought(level, g.Rules, time.Since(start))
	if err != nil {
		return fmt.Errorf("session: game %s: AI move: %w", g.ID, err)
	}
	return s.play(g, b, p)
}

// loadInPlay loads game id for an action (named what in errors) that a
// player takes at move moveNo, with the game's lock held by the caller. It
// refuses another handling of the same update (ErrDuplicate), ends a game
// past its deadline (ErrExpired), and refuses a game not running
// (ErrNotStarted, ErrGameOver), someone who does not play it
// (ErrNotAPlayer) and a stale move number (ErrStale). It returns the game
// and the player's side, or the view to show with the error.
func (s *Service) loadInPlay(ctx context.Context, who Actor, id GameID, moveNo int, what string) (Game, engine.Stone, View, error) {
	if v, err := s.duplicate(ctx); err != nil {
		return Game{}, engine.Empty, v, err
	}
	g, err := s.loadFor(ctx, who, id)
	if err != nil {
		return Game{}, engine.Empty, View{}, err
	}
	if v, err := s.expireIfDue(ctx, &g); err != nil {
		return Game{}, engine.Empty, v, err
	}
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

// commit stores g as its next version and returns its view. was is the
// status g was loaded with: when g ended since, its result goes into the
// players' stats in the same transaction, as does the mark of the update
// ctx handles. When that update took effect already, it returns
// ErrDuplicate with the game it changed.
func (s *Service) commit(ctx context.Context, g *Game, b *engine.Board, was Status) (View, error) {
	g.Version++
	g.Updated = s.now()
	if g.Status.Over() {
		g.Deadline, g.UndoAsk, g.Hint = time.Time{}, engine.Empty, nil
	}
	ended := g.Status.Over() && !was.Over()
	now, start := g.Updated, time.Now()
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := markUpdate(ctx, tx, g.ID, now); err != nil {
			return err
		}
		if err := tx.PutGame(*g); err != nil {
			return err
		}
		if ended {
			return countResult(tx, g)
		}
		return nil
	})
	if err != nil {
		return s.duplicated(ctx, View{}, fmt.Errorf("session: commit game %s: %w", g.ID, err))
	}
	s.observer.Committed(time.Since(start))
	return newView(g, b), nil
}

// Live returns the chat's open challenges and running games (against the
// AI and duels) that the actor takes part in or may accept, oldest first.
// Games whose records are unreadable are left out and reported to
// Config.OnUnreadable.
func (s *Service) Live(ctx context.Context, who Actor) ([]View, error) {
	var views []View
	var bad []GameID
	err := s.store.View(ctx, func(tx Tx) error {
		ids, err := tx.LiveGames(who.Platform, who.Chat)
		if err != nil {
			return err
		}
		for _, id := range ids {
			g, err := tx.Game(id)
			if errors.Is(err, ErrSchema) {
				bad = append(bad, id)
				continue
			}
			if err != nil {
				return err
			}
			if g.SideOf(who.User.ID) == engine.Empty && (g.Status != Open || roleOf(&g, who.User) == bystander) {
				continue
			}
			v, err := s.view(&g)
			if err != nil {
				return err
			}
			views = append(views, v)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("session: live games in %s chat %q: %w", who.Platform, who.Chat, err)
	}
	for _, id := range bad {
		s.onUnreadable(UnreadableGame, string(id))
	}
	return views, nil
}

// Last returns the last game the actor finished in the chat, or
// ErrNotFound (also when that game's record is unreadable).
func (s *Service) Last(ctx context.Context, who Actor) (View, error) {
	return s.gameAt(ctx, func(tx Tx) (GameID, error) { return tx.LastGame(who.Platform, who.Chat, who.User.ID) })
}
