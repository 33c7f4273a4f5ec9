package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

// Start begins a game between the actor and the AI and, when the AI moves
// first, plays its first move. When the actor already has a running game
// against the AI in the chat, Start returns a view of that game with
// ErrAlreadyPlaying. Invalid rules or level give ErrBadRequest. Limits
// give ErrUserGames and ErrChatGames, and a busy AI ErrBusy.
func (t *Turn) Start(req StartRequest) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	if err := req.Rules.Validate(); err != nil {
		return View{}, fmt.Errorf("session: start: %w: %w", ErrBadRequest, err)
	}
	if !req.Level.Valid() {
		return View{}, fmt.Errorf("session: start: %w: level %d", ErrBadRequest, req.Level)
	}
	if who.User.ID == "" {
		return View{}, fmt.Errorf("session: start: %w: no user", ErrBadRequest)
	}
	defer t.s.lockStart(who.Platform, who.Chat, who.User.ID)()
	g := t.s.newGame(who, req.Rules, Running)
	human, ai := Seat{User: who.User}, Seat{AI: req.Level}
	g.Seats = [2]Seat{human, ai}
	if pickSide(req.Side, g.Seed) == Second {
		g.Seats = [2]Seat{ai, human}
	}
	var alone func(lt layout, id GameID) error
	if req.Alone {
		alone = ownChat(who)
	}
	return t.create(&g, t.runningAI, alone)
}

// ownChat returns the check of a game new to a chat that is one message
// (StartRequest.Alone, ChallengeRequest.Alone), run in the transaction
// that stores game id: the chat holds no other live game, and it belongs
// to who — the first user to play there owns it from then on, so that
// nobody else can put a game of theirs on that message, finished games
// or not. It gives ErrChatGames otherwise.
func ownChat(who Actor) func(lt layout, id GameID) error {
	return func(lt layout, id GameID) error {
		ids, err := lt.LiveGames(who.Platform, who.Chat)
		if err != nil {
			return err
		}
		for _, other := range ids {
			if other != id {
				return fmt.Errorf("session: start in %s chat %q, which holds game %s: %w", who.Platform, who.Chat, other, ErrChatGames)
			}
		}
		cs, err := lt.ChatSettings(who.Platform, who.Chat)
		if err != nil {
			return err
		}
		switch cs.Owner {
		case who.User.ID:
			return nil
		case "":
			cs.Owner = who.User.ID
			return lt.PutChatSettings(who.Platform, who.Chat, cs)
		}
		return fmt.Errorf("session: start in %s chat %q, which is %q's: %w", who.Platform, who.Chat, cs.Owner, ErrChatGames)
	}
}

// lockStart takes the lock that serialises starting games against the AI
// for one user in one chat, and returns its unlock.
func (s *Service) lockStart(p Platform, chat, userID string) func() {
	return s.locks.lock("start\x00" + string(userKey(p, chat, userID)))
}

// runningAI returns ErrAlreadyPlaying and a view of the actor's running
// game against the AI in the chat when there is one, and nil when not. A
// game past its deadline does not count: it is as good as expired, and
// ends when the sweeper or a tap reaches it.
func (t *Turn) runningAI() (View, error) {
	v, err := t.Running()
	switch {
	case err == nil && !v.Deadline().IsZero() && !t.s.now().Before(v.Deadline()):
		return View{}, nil
	case err == nil:
		return v, fmt.Errorf("session: game %s: %w", v.ID(), ErrAlreadyPlaying)
	case errors.Is(err, ErrNotFound):
		return View{}, nil
	}
	return View{}, err
}

// newGame returns a new game of the actor's chat with its seed and times
// set, but no id and no seats; its version is 0 until it is stored.
func (s *Service) newGame(who Actor, r engine.Rules, st Status) Game {
	now := s.now()
	return Game{
		Platform: who.Platform, Chat: who.Chat, Rules: r, Status: st,
		Seed: s.newSeed(), Created: now, Updated: now,
	}
}

// pickSide resolves RandomSide with the game's seed.
func pickSide(side Side, seed uint64) Side {
	if side == RandomSide {
		return Side(rand.New(rand.NewPCG(seed, 0)).IntN(2))
	}
	return side
}

// create stores the new game g under a new id, after the AI's first move
// when it has black, together with what also writes in the same commit
// (nil: nothing) and the mark of the turn's update. check, when set, may
// refuse the game first, with the view to show; it runs again with the
// reads of each attempt.
func (t *Turn) create(g *Game, check func() (View, error), also func(lt layout, id GameID) error) (View, error) {
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	who := Actor{Platform: g.Platform, Chat: g.Chat, User: g.Seats[0].User}
	if g.Challenger != engine.Empty {
		who.User = g.Seat(g.Challenger).User
	} else if g.Seats[0].IsAI() {
		who.User = g.Seats[1].User
	}
	first := *g
	for attempt := 0; ; attempt++ {
		if v, err := t.duplicate(); err != nil {
			return v, err
		}
		if check != nil {
			if v, err := check(); err != nil {
				return v, err
			}
		}
		*g = first.clone()
		b, _ = g.board()
		if err := t.playAI(g, b); err != nil {
			return View{}, err
		}
		t.s.touch(g)
		if !g.IsDuel() {
			g.HintLimit = max(0, t.s.lim.HintsPerGame)
		}
		lt := t.tx()
		if err := t.s.lim.check(lt, who); err != nil {
			return View{}, err
		}
		id, err := lt.NewGameID()
		if err != nil {
			return View{}, fmt.Errorf("session: new game: %w", err)
		}
		g.ID = id
		var v View
		v, err = t.commitGame(g, b, g.Status, func(lt layout) error {
			if also != nil {
				return also(lt, id)
			}
			return nil
		})
		if err == nil {
			if g.MoveNo() > 0 {
				t.s.observer.Moved(g.Platform, true)
			}
			return v, nil
		}
		if !t.conflicted(err, attempt) {
			if errors.Is(err, ErrDuplicate) {
				v, _ := t.duplicate()
				return v, fmt.Errorf("session: new game: %w", err)
			}
			return View{}, fmt.Errorf("session: new game: %w", err)
		}
	}
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
// point under renju, and ErrBusy when the AI's reply would wait for a full
// AI pool. A game past its deadline is ended as expired and returned with
// ErrExpired.
func (t *Turn) Place(req PlaceRequest) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	defer t.s.locks.lock(string(req.Game))()
	for attempt := 0; ; attempt++ {
		g, me, v, err := t.loadInPlay(req.Game, req.MoveNo, "place")
		if err != nil {
			if t.conflicted(err, attempt) {
				continue
			}
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
		if err := t.s.play(&g, b, req.Cell); err != nil {
			return View{}, err
		}
		// A move by either player withdraws a pending takeback request.
		g.UndoAsk = engine.Empty
		if err := t.playAI(&g, b); err != nil {
			return View{}, err
		}
		t.s.touch(&g)
		v, err = t.commitGame(&g, b, Running, nil)
		if err != nil {
			if t.conflicted(err, attempt) {
				continue
			}
			return t.duplicated(v, fmt.Errorf("session: commit game %s: %w", g.ID, err))
		}
		t.s.observer.Moved(g.Platform, false)
		if g.MoveNo() > req.MoveNo+1 {
			t.s.observer.Moved(g.Platform, true)
		}
		return v, nil
	}
}

// duplicated completes a change that failed: when its commit found the
// update already handled (ErrDuplicate), it returns the view of the game
// that handling changed with the error; otherwise v and err unchanged.
func (t *Turn) duplicated(v View, err error) (View, error) {
	if !errors.Is(err, ErrDuplicate) {
		return v, err
	}
	dv, _ := t.duplicate()
	return dv, err
}

// change runs an action on a game that the actor loads with load (its
// refusals and the view to show with them) and changes with apply,
// committing the result; apply returns the status the game had before,
// and false when it changed nothing (the game is shown as it is). It
// reads and applies again after a conflict.
func (t *Turn) change(load func() (Game, View, error), apply func(g *Game) (Status, bool, error)) (View, error) {
	for attempt := 0; ; attempt++ {
		g, v, err := load()
		if err != nil {
			if t.conflicted(err, attempt) {
				continue
			}
			return v, err
		}
		was, changed, err := apply(&g)
		if err != nil {
			return View{}, err
		}
		if !changed {
			// The update took effect as no change: its mark, committed
			// on what was read, says so, and is refused (ErrDuplicate)
			// when another handling of it overtook these reads.
			if t.req.Update != "" {
				if err := t.commit(g.ID, nil); err != nil {
					if t.conflicted(err, attempt) {
						continue
					}
					return t.duplicated(View{}, fmt.Errorf("session: game %s: %w", g.ID, err))
				}
			}
			return t.s.view(&g)
		}
		b, err := g.board()
		if err != nil {
			return View{}, err
		}
		v, err = t.commitGame(&g, b, was, nil)
		if err != nil {
			if t.conflicted(err, attempt) {
				continue
			}
			return t.duplicated(v, fmt.Errorf("session: commit game %s: %w", g.ID, err))
		}
		return v, nil
	}
}

// Resign ends the actor's game as a loss for them, or, in a duel where
// not both players have moved yet, as Aborted with no winner. Refusals:
// ErrNotFound, ErrNotStarted (an open challenge: Cancel or Decline it),
// ErrGameOver, ErrNotAPlayer, and ErrExpired with the expired game.
func (t *Turn) Resign(id GameID) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	defer t.s.locks.lock(string(id))()
	load := func() (Game, View, error) {
		if v, err := t.duplicate(); err != nil {
			return Game{}, v, err
		}
		g, err := t.loadFor(id)
		if err != nil {
			return Game{}, View{}, err
		}
		v, err := t.expireIfDue(&g)
		return g, v, err
	}
	return t.change(load, func(g *Game) (Status, bool, error) {
		me := g.SideOf(who.User.ID)
		switch {
		case g.Status == Open:
			return "", false, fmt.Errorf("session: resign game %s: %w", id, ErrNotStarted)
		case g.Status.Over():
			return "", false, fmt.Errorf("session: resign game %s: %w", id, ErrGameOver)
		case me == engine.Empty:
			return "", false, fmt.Errorf("session: resign game %s by %q: %w", id, who.User.ID, ErrNotAPlayer)
		}
		g.Status, g.Winner = Resigned, me.Opponent()
		if g.abortable() {
			g.Status, g.Winner = Aborted, engine.Empty
		}
		return Running, true, nil
	})
}

// Game returns a view of the game with the id, or ErrNotFound.
func (t *Turn) Game(id GameID) (View, error) {
	g, err := t.game(id)
	if err != nil {
		return View{}, err
	}
	return t.s.view(&g)
}

// Game returns a view of the game with the id, or ErrNotFound, read in a
// transaction of its own.
func (s *Service) Game(ctx context.Context, id GameID) (View, error) {
	var g Game
	err := s.kv.View(ctx, func(tx kv.Tx) error {
		var err error
		g, err = layout{tx}.Game(id)
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.view(&g)
}

// Running returns the actor's running game against the AI in the chat,
// or ErrNotFound (also when that game's record is unreadable).
func (t *Turn) Running() (View, error) {
	who := t.req.Actor
	return t.gameAt(func(lt layout) (GameID, error) { return lt.RunningGame(who.Platform, who.Chat, who.User.ID) })
}

// Last returns the last game the actor finished in the chat, or
// ErrNotFound (also when that game's record is unreadable).
func (t *Turn) Last() (View, error) {
	who := t.req.Actor
	return t.gameAt(func(lt layout) (GameID, error) { return lt.LastGame(who.Platform, who.Chat, who.User.ID) })
}

// gameAt returns the game whose id lookup finds. An unreadable game is
// skipped (and reported) like a missing one, so that a bad record does
// not stop the user from starting another game.
func (t *Turn) gameAt(lookup func(layout) (GameID, error)) (View, error) {
	id, err := lookup(t.tx())
	if err != nil {
		return View{}, err
	}
	v, err := t.Game(id)
	if errors.Is(err, ErrSchema) {
		t.s.onUnreadable(UnreadableGame, string(id))
		return View{}, fmt.Errorf("session: game %q skipped: %w", id, ErrNotFound)
	}
	return v, err
}

// view returns the view of a stored game.
func (s *Service) view(g *Game) (View, error) {
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	return newView(g, b), nil
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

// think asks the AI of level for its move on b.
func (s *Service) think(ctx context.Context, g *Game, b *engine.Board, level engine.Level) (engine.Point, error) {
	ai, err := s.newPlayer(level, rand.New(rand.NewPCG(g.Seed, uint64(g.MoveNo()))))
	if err != nil {
		return engine.Point{}, fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	start := time.Now()
	p, err := ai.Move(ctx, b.Clone())
	s.observer.Thought(level, g.Rules, time.Since(start))
	if err != nil {
		return engine.Point{}, fmt.Errorf("session: game %s: AI move: %w", g.ID, err)
	}
	return p, nil
}

// Live returns the chat's open challenges and running games (against the
// AI and duels) that the actor takes part in or may accept, oldest first.
// Games whose records are unreadable are left out and reported to
// Config.OnUnreadable.
func (t *Turn) Live() ([]View, error) {
	who := t.req.Actor
	lt := t.tx()
	var views []View
	ids, err := lt.LiveGames(who.Platform, who.Chat)
	if err != nil {
		return nil, fmt.Errorf("session: live games in %s chat %q: %w", who.Platform, who.Chat, err)
	}
	for _, id := range ids {
		g, err := lt.Game(id)
		if errors.Is(err, ErrSchema) {
			t.s.onUnreadable(UnreadableGame, string(id))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("session: live games in %s chat %q: %w", who.Platform, who.Chat, err)
		}
		if g.SideOf(who.User.ID) == engine.Empty && (g.Status != Open || roleOf(&g, who.User) == bystander) {
			continue
		}
		v, err := t.s.view(&g)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	return views, nil
}

// LiveCount returns how many open challenges and running games the store
// holds, for metrics.
func (s *Service) LiveCount(ctx context.Context) (int, error) {
	n := 0
	err := s.kv.View(ctx, func(tx kv.Tx) error {
		var err error
		n, err = tx.Count(bucketLive)
		return err
	})
	return n, err
}
