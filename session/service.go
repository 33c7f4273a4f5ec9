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
	// NewPlayer returns the AI player of a level. Default engine.NewPlayer.
	NewPlayer func(l engine.Level, rng *rand.Rand) (engine.Player, error)
}

// Service starts games, places stones and ends games, committing each
// change to its Store. It is safe for concurrent use.
type Service struct {
	store     Store
	now       func() time.Time
	newSeed   func() uint64
	newPlayer func(engine.Level, *rand.Rand) (engine.Player, error)
	locks     keyedMutex
}

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
		s.newPlayer = engine.NewPlayer
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
}

// Start begins a game between the user and the AI and, when the AI moves
// first, plays its first move. When the user already has a running game
// against the AI in the chat, Start returns a view of that game with
// ErrAlreadyPlaying. Invalid rules or level give ErrBadRequest.
func (s *Service) Start(ctx context.Context, who Actor, req StartRequest) (View, error) {
	if err := req.Rules.Validate(); err != nil {
		return View{}, fmt.Errorf("session: start: %w: %w", ErrBadRequest, err)
	}
	if !req.Level.Valid() {
		return View{}, fmt.Errorf("session: start: %w: level %d", ErrBadRequest, req.Level)
	}
	if who.User.ID == "" {
		return View{}, fmt.Errorf("session: start: %w: no user", ErrBadRequest)
	}
	defer s.locks.lock("start\x00" + string(runningKey(who.Platform, who.Chat, who.User.ID)))()

	if v, err := s.Running(ctx, who); err == nil {
		return v, fmt.Errorf("session: start: game %s: %w", v.ID(), ErrAlreadyPlaying)
	} else if !errors.Is(err, ErrNotFound) {
		return View{}, err
	}

	now := s.now()
	g := Game{
		Platform: who.Platform, Chat: who.Chat, Rules: req.Rules, Status: Running,
		Seed: s.newSeed(), Created: now, Updated: now, Version: 1,
	}
	human, ai := Seat{User: who.User}, Seat{AI: req.Level}
	side := req.Side
	if side == RandomSide {
		side = Side(rand.New(rand.NewPCG(g.Seed, 0)).IntN(2))
	}
	g.Seats = [2]Seat{human, ai}
	if side == Second {
		g.Seats = [2]Seat{ai, human}
	}
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	if err := s.playAI(ctx, &g, b); err != nil {
		return View{}, err
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		id, err := tx.NewGameID()
		if err != nil {
			return err
		}
		g.ID = id
		return tx.PutGame(g)
	})
	if err != nil {
		return View{}, fmt.Errorf("session: start: %w", err)
	}
	return newView(&g, b), nil
}

// PlaceRequest is a tap: a stone at Cell as move number MoveNo of a game.
type PlaceRequest struct {
	Game   GameID
	MoveNo int
	Cell   engine.Point
}

// Place checks the request against the game, plays the stone, lets the AI
// reply when it is the AI's turn, and commits both moves together. Refusals,
// which change nothing: ErrNotFound, ErrGameOver, ErrNotAPlayer, ErrStale,
// ErrNotYourTurn, ErrOffBoard, ErrCellTaken.
func (s *Service) Place(ctx context.Context, who Actor, req PlaceRequest) (View, error) {
	defer s.locks.lock(string(req.Game))()
	g, err := s.loadFor(ctx, who, req.Game)
	if err != nil {
		return View{}, err
	}
	me := g.SideOf(who.User.ID)
	switch {
	case g.Status.Over():
		return View{}, fmt.Errorf("session: place in game %s: %w", g.ID, ErrGameOver)
	case me == engine.Empty:
		return View{}, fmt.Errorf("session: place in game %s by %q: %w", g.ID, who.User.ID, ErrNotAPlayer)
	case req.MoveNo != g.MoveNo():
		return View{}, fmt.Errorf("session: place in game %s: move %d, game is at %d: %w", g.ID, req.MoveNo, g.MoveNo(), ErrStale)
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
	if err := s.playAI(ctx, &g, b); err != nil {
		return View{}, err
	}
	return s.commit(ctx, &g, b)
}

// Resign ends the user's game as a loss for them.
func (s *Service) Resign(ctx context.Context, who Actor, id GameID) (View, error) {
	defer s.locks.lock(string(id))()
	g, err := s.loadFor(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	me := g.SideOf(who.User.ID)
	switch {
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
	return s.commit(ctx, &g, b)
}

// BindMessage records the id of the message that shows the game's board.
func (s *Service) BindMessage(ctx context.Context, id GameID, message string) (View, error) {
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
	return s.commit(ctx, &g, b)
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
// ErrNotFound.
func (s *Service) Running(ctx context.Context, who Actor) (View, error) {
	var id GameID
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		id, err = tx.RunningGame(who.Platform, who.Chat, who.User.ID)
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.Game(ctx, id)
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
	ai, err := s.newPlayer(g.Seat(g.ToMove()).AI, rand.New(rand.NewPCG(g.Seed, uint64(g.MoveNo()))))
	if err != nil {
		return fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	p, err := ai.Move(ctx, b)
	if err != nil {
		return fmt.Errorf("session: game %s: AI move: %w", g.ID, err)
	}
	return s.play(g, b, p)
}

// commit stores g as its next version and returns its view.
func (s *Service) commit(ctx context.Context, g *Game, b *engine.Board) (View, error) {
	g.Version++
	g.Updated = s.now()
	if err := s.store.Update(ctx, func(tx Tx) error { return tx.PutGame(*g) }); err != nil {
		return View{}, fmt.Errorf("session: commit game %s: %w", g.ID, err)
	}
	return newView(g, b), nil
}
