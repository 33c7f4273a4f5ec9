package session

import (
	"math/rand/v2"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
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
	// was handled (see Request.Update), so that the same update delivered
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
	kv      kv.Store
	now     func() time.Time
	newSeed func() uint64
	// newPlayer is Config.NewPlayer; nil means the engine's players
	// with thinkTime (Service.player).
	newPlayer func(engine.Level, *rand.Rand) (engine.Player, error)
	thinkTime time.Duration
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
	// handled and received group the Handled calls, and the updates
	// Receive keeps, into commits.
	handled  group[handledItem]
	received group[receivedItems]
	// paces groups the Reserve calls into commits.
	paces group[*paceCall]
}

// limits are the time limits of live games.
type limits struct{ challenge, idleAI, turn time.Duration }

// New returns a Service on store, where games, stats and settings live.
// A nil cfg means the defaults.
func New(store kv.Store, cfg *Config) *Service {
	if cfg == nil {
		cfg = &Config{}
	}
	s := &Service{kv: store, now: cfg.Now, newSeed: cfg.NewSeed, newPlayer: cfg.NewPlayer}
	if s.now == nil {
		s.now = time.Now
	}
	if s.newSeed == nil {
		s.newSeed = rand.Uint64
	}
	s.thinkTime = cfg.ThinkTime
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

// Shared reports whether other processes may use the Service's store at
// the same time (replicas on one etcd cluster; see kv.Store.Shared), so
// that what they all do, such as the messages they send (Reserve), must
// be agreed through the store.
func (s *Service) Shared() bool { return s.kv.Shared() }

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

// Observer hears what a Service does, for metrics. Its methods are called
// from many goroutines at once and must return quickly.
type Observer interface {
	// Moved is called once for each stone a committed change placed: by a
	// person, or by the AI when ai is set.
	Moved(p Platform, ai bool)
	// Refused is called when an action is refused, with the refusal's
	// Reason.
	Refused(p Platform, reason string)
	// Thought is called after each AI move with how long the AI took.
	Thought(l engine.Level, r engine.Rules, d time.Duration)
	// Committed is called after each change to a game was committed, with
	// how long the store took (including the wait for a group commit).
	Committed(d time.Duration)
}
