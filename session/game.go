package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
	"github.com/boardbot/boardbot/session/rating"
)

// GameID identifies a game across platforms; it is short enough to travel
// in callback data.
type GameID string

// Platform names the chat platform a game is played on, such as
// "telegram", "discord" or "console".
type Platform string

// User is a person on a platform: an opaque id, a display name, and the
// platform handle (a username such as Telegram's @alice, without the '@';
// empty when the user has none). A display name identifies nobody: anyone
// may take any name, so challenges never match on it.
type User struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Handle string `json:"handle,omitempty"`
}

// Seat is one side of a game: a person, or the AI at some level.
type Seat struct {
	User User `json:"user,omitzero"`
	// AI is the level of the AI in this seat; zero for a person.
	AI engine.Level `json:"ai,omitempty"`
	// Rung is the rung of the strength ladder an adaptive AI plays at,
	// chosen when the game started from the player's rating against the
	// AI; zero for the other seats.
	Rung engine.Rung `json:"rung,omitempty"`
}

// IsAI reports whether the AI plays this seat.
func (s Seat) IsAI() bool { return s.AI != 0 }

// Strength returns the rung of the strength ladder the AI of this seat
// plays at: its own for an adaptive AI, its level's for the others.
func (s Seat) Strength() engine.Rung {
	if s.AI == engine.Adaptive {
		return s.Rung
	}
	return s.AI.Rung()
}

// Named returns the fixed level nearest the strength the AI of this seat
// plays at: its own level, or, for an adaptive AI, the level whose rung's
// Elo is nearest its rung's. Results are tallied under it.
func (s Seat) Named() engine.Level {
	if s.AI != engine.Adaptive {
		return s.AI
	}
	elos := make([]float64, len(engine.Levels))
	for i, l := range engine.Levels {
		elos[i] = l.Rung().Elo()
	}
	return engine.Levels[rating.Pick(rating.Rating{Value: s.Rung.Elo()}, elos)]
}

// Status is where a game is in its life.
type Status string

// The statuses of a game. Open and Running are live; every other status
// is final. Open, Declined, Cancelled and Lapsed are challenges that never
// became a game.
const (
	// Open is a duel challenge waiting for its opponent.
	Open Status = "open"
	// Running is a game being played.
	Running Status = "running"
	// Won is a game won on the board; Winner says by whom.
	Won Status = "won"
	// Drawn is a full board with no winner.
	Drawn Status = "drawn"
	// Resigned is a game given up; Winner is the side that did not resign.
	Resigned Status = "resigned"
	// Expired is a game nobody moved in for too long. In a duel the side
	// whose turn it was loses (Winner is the other side); against the AI
	// there is no winner.
	Expired Status = "expired"
	// Aborted is a duel that ended, by resignation or expiry, before both
	// players had moved: nobody wins, and it counts in no stats or rating.
	Aborted Status = "aborted"
	// Declined is a challenge its addressee turned down.
	Declined Status = "declined"
	// Cancelled is a challenge its challenger withdrew.
	Cancelled Status = "cancelled"
	// Lapsed is a challenge nobody accepted in time.
	Lapsed Status = "lapsed"
)

// Over reports whether the status is final.
func (s Status) Over() bool { return s != Running && s != Open }

// Played reports whether a game with this status was played (so it can be
// rematched, and counts in stats unless it was aborted), rather than
// being a challenge that never started.
func (s Status) Played() bool {
	switch s {
	case Running, Won, Drawn, Resigned, Expired, Aborted:
		return true
	}
	return false
}

// valid reports whether s is one of the statuses.
func (s Status) valid() bool {
	switch s {
	case Open, Running, Won, Drawn, Resigned, Expired, Aborted, Declined, Cancelled, Lapsed:
		return true
	}
	return false
}

// Game is the stored state of one game. Only Service changes it.
type Game struct {
	ID       GameID
	Platform Platform
	Chat     string
	// Message is the platform's id of the message that shows the board;
	// empty until the adapter binds it.
	Message string
	Rules   engine.Rules
	// Seats are the players: Seats[0] plays black and moves first. In an
	// open challenge the challenged seat is the addressee: a user with an
	// id, or with only a handle; or nobody (anyone may accept).
	Seats [2]Seat
	// Challenger is the side of the person who proposed a duel; Empty for
	// games against the AI.
	Challenger engine.Stone
	Moves      []engine.Point
	// Status and Winner say how the game ended; Winner is engine.Empty
	// while running and for a draw.
	Status Status
	Winner engine.Stone
	// Version counts committed changes; a store refuses to overwrite a
	// game whose version moved on.
	Version int
	// Seed makes the AI's random choices in this game replayable.
	Seed uint64
	// Deadline is when a live game expires if nothing happens: an open
	// challenge unanswered, or a running game with no move. Zero once the
	// game is over.
	Deadline time.Time
	// Rematch is the id of the game started as this one's rematch, once
	// someone asked for it.
	Rematch GameID
	// Takebacks counts the takebacks done in this game; a game with any
	// is marked in stats.
	Takebacks int
	// UndoAsk is the side that asked its opponent in a duel for a
	// takeback not yet answered; Empty when none is pending.
	UndoAsk engine.Stone
	// HintLimit is how many hints the player may ask for in a game
	// against the AI (Limits.HintsPerGame when it started); Hints counts
	// those given, and a game with any is marked in stats. Hint is the
	// move suggested for the position on the board, nil once a move is
	// played; it is never changed in place.
	HintLimit int
	Hints     int
	Hint      *engine.Point
	Created   time.Time
	Updated   time.Time
}

// IsDuel reports whether two people play the game.
func (g *Game) IsDuel() bool { return !g.Seats[0].IsAI() && !g.Seats[1].IsAI() }

// MoveNo returns the number of the next move, counting from zero: the
// number of stones on the board.
func (g *Game) MoveNo() int { return len(g.Moves) }

// ToMove returns the side whose turn it is.
func (g *Game) ToMove() engine.Stone {
	if len(g.Moves)%2 == 0 {
		return engine.Black
	}
	return engine.White
}

// SideOf returns the side user plays, or engine.Empty when the user has no
// seat.
func (g *Game) SideOf(userID string) engine.Stone {
	if userID == "" {
		return engine.Empty
	}
	for i, s := range g.Seats {
		if !s.IsAI() && s.User.ID == userID {
			return engine.Stone(i + 1)
		}
	}
	return engine.Empty
}

// abortable reports whether ending g now, other than on the board, aborts
// it: a duel in which not both players have moved yet.
func (g *Game) abortable() bool { return g.IsDuel() && len(g.Moves) < 2 }

// undoSpan returns how many moves a takeback by side takes off the end of
// g's moves: back to before side's last move, so that it is side's turn
// again (its move, and the reply to it if there is one). It reports false
// when side has no move to take back.
func (g *Game) undoSpan(side engine.Stone) (int, bool) {
	n := len(g.Moves)
	if n == 0 {
		return 0, false
	}
	k := 1
	if lastBy := engine.Stone((n-1)%2 + 1); lastBy != side {
		k = 2
	}
	return k, n >= k
}

// Seat returns the seat of side s (Black or White).
func (g *Game) Seat(s engine.Stone) Seat { return g.Seats[s-1] }

// clone returns a deep copy.
func (g *Game) clone() Game {
	c := *g
	c.Moves = append([]engine.Point(nil), g.Moves...)
	if g.Hint != nil {
		h := *g.Hint
		c.Hint = &h
	}
	return c
}

// board replays the game's moves through the engine.
func (g *Game) board() (*engine.Board, error) { return engine.Replay(g.Rules, g.Moves) }

// View is an immutable snapshot of a game as committed. Its getters return
// copies, so holding or changing what they return never touches the game.
type View struct {
	g       Game
	outcome engine.Outcome
}

// newView snapshots g, whose moves replay to board b.
func newView(g *Game, b *engine.Board) View {
	return View{g: g.clone(), outcome: b.Outcome()}
}

// ID returns the game's id.
func (v View) ID() GameID { return v.g.ID }

// Platform returns the platform the game is played on.
func (v View) Platform() Platform { return v.g.Platform }

// Chat returns the chat the game belongs to.
func (v View) Chat() string { return v.g.Chat }

// Message returns the id of the message that shows the board, or "".
func (v View) Message() string { return v.g.Message }

// Rules returns the game's rules.
func (v View) Rules() engine.Rules { return v.g.Rules }

// Seat returns the seat playing side s (engine.Black or engine.White).
func (v View) Seat(s engine.Stone) Seat { return v.g.Seat(s) }

// SideOf returns the side the user plays, or engine.Empty.
func (v View) SideOf(userID string) engine.Stone { return v.g.SideOf(userID) }

// Moves returns the moves played, in order.
func (v View) Moves() []engine.Point { return append([]engine.Point(nil), v.g.Moves...) }

// MoveNo returns the number of the next move: a tap must carry it.
func (v View) MoveNo() int { return v.g.MoveNo() }

// LastMove returns the last move and whether there is one.
func (v View) LastMove() (engine.Point, bool) {
	if len(v.g.Moves) == 0 {
		return engine.Point{}, false
	}
	return v.g.Moves[len(v.g.Moves)-1], true
}

// ToMove returns the side whose turn it is.
func (v View) ToMove() engine.Stone { return v.g.ToMove() }

// Status returns the game's status.
func (v View) Status() Status { return v.g.Status }

// Winner returns the winning side, or engine.Empty while running and for a
// draw.
func (v View) Winner() engine.Stone { return v.g.Winner }

// WinningLine returns the cells of the winning line when the game was won
// on the board, or nil.
func (v View) WinningLine() []engine.Point {
	return append([]engine.Point(nil), v.outcome.Line...)
}

// Fouls returns the points forbidden to Black, with their fouls, while a
// renju game runs and Black is to move; nil otherwise.
func (v View) Fouls() map[engine.Point]engine.Foul {
	if !v.g.Rules.Renju || v.g.Status != Running || v.g.ToMove() != engine.Black {
		return nil
	}
	return v.Board().Fouls()
}

// Board returns a fresh engine board holding the game's position.
func (v View) Board() *engine.Board {
	b, err := v.g.board()
	if err != nil {
		// A view is only made from a game whose moves replayed.
		panic("session: view of an unplayable game: " + err.Error())
	}
	return b
}

// Version returns the number of committed changes to the game.
func (v View) Version() int { return v.g.Version }

// Created returns when the game started.
func (v View) Created() time.Time { return v.g.Created }

// Updated returns when the game last changed.
func (v View) Updated() time.Time { return v.g.Updated }

// IsDuel reports whether two people play the game.
func (v View) IsDuel() bool { return v.g.IsDuel() }

// Challenger returns the side of the person who proposed the duel, or
// engine.Empty for a game against the AI.
func (v View) Challenger() engine.Stone { return v.g.Challenger }

// Deadline returns when the live game expires if nothing happens, or the
// zero time once it is over.
func (v View) Deadline() time.Time { return v.g.Deadline }

// Rematch returns the id of the game started as this one's rematch, or "".
func (v View) Rematch() GameID { return v.g.Rematch }

// Takebacks returns how many takebacks the game had.
func (v View) Takebacks() int { return v.g.Takebacks }

// UndoAsk returns the side whose takeback request awaits its opponent's
// answer in a duel, or engine.Empty.
func (v View) UndoAsk() engine.Stone { return v.g.UndoAsk }

// Hint returns the move suggested by a hint for the position on the
// board, and whether there is one.
func (v View) Hint() (engine.Point, bool) {
	if v.g.Hint == nil {
		return engine.Point{}, false
	}
	return *v.g.Hint, true
}

// Hints returns how many hints the game had.
func (v View) Hints() int { return v.g.Hints }

// HintsLeft returns how many more hints the game allows.
func (v View) HintsLeft() int { return max(0, v.g.HintLimit-v.g.Hints) }

// ViewOf returns the view of game g as the session would show it once
// stored, for a front that shows a game it made up (a preview, a
// picture of a position); an error when its moves do not replay under
// its rules.
func ViewOf(g Game) (View, error) {
	b, err := g.board()
	if err != nil {
		return View{}, fmt.Errorf("session: view of game %q: %w", g.ID, err)
	}
	return newView(&g, b), nil
}

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
	if err := t.adapt(&ai, who.User.ID, req.Rules); err != nil {
		return View{}, err
	}
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

// adapt sets the rung an adaptive AI in seat plays a game of rules r at
// against user, from the user's rating against the AI (Stats.AdaptiveRung);
// other seats are left as they are.
func (t *Turn) adapt(seat *Seat, user string, r engine.Rules) error {
	if seat.AI != engine.Adaptive {
		return nil
	}
	// Read apart from the turn's transaction: the rating only picks a
	// rung, and another game of the user's ending meanwhile need not
	// make this one start again.
	st, err := t.s.Stats(t.ctx, t.req.Actor.Platform, user)
	if err != nil {
		return err
	}
	seat.Rung = st.AdaptiveRung(r)
	return nil
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

// loader returns the load of a change (see change) to game id: it
// refuses another handling of the turn's update (ErrDuplicate), reads the
// game for the actor and ends it when its deadline has passed
// (ErrExpired, with its view).
func (t *Turn) loader(id GameID) func() (Game, View, error) {
	return func() (Game, View, error) {
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
	return t.change(t.loader(id), func(g *Game) (Status, bool, error) {
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

// player returns the AI player of seat drawing on rng: Config.NewPlayer's
// (for an adaptive seat, at the fixed level nearest its rung) or the
// engine's.
func (s *Service) player(seat Seat, rng *rand.Rand) (engine.Player, error) {
	if s.newPlayer != nil {
		return s.newPlayer(seat.Named(), rng)
	}
	o := engine.Options{Rand: rng, ThinkTime: s.thinkTime}
	if seat.AI == engine.Adaptive {
		return engine.NewRungPlayer(seat.Rung, o)
	}
	return engine.NewPlayerWith(seat.AI, o)
}

// think asks the AI of seat for its move on b.
func (s *Service) think(ctx context.Context, g *Game, b *engine.Board, seat Seat) (engine.Point, error) {
	ai, err := s.player(seat, rand.New(rand.NewPCG(g.Seed, uint64(g.MoveNo()))))
	if err != nil {
		return engine.Point{}, fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	start := time.Now()
	p, err := ai.Move(ctx, b.Clone())
	s.observer.Thought(seat.AI, g.Rules, time.Since(start))
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

// expireIfDue ends g when it is live and its deadline has passed,
// committing it, and then returns its view with an error wrapping
// ErrExpired; g is updated in place. It returns a zero View and nil when
// g is not due. The caller holds g's lock.
func (t *Turn) expireIfDue(g *Game) (View, error) {
	if g.Status.Over() || g.Deadline.IsZero() || t.s.now().Before(g.Deadline) {
		return View{}, nil
	}
	v, err := t.expire(g)
	if err != nil {
		return v, err
	}
	return v, fmt.Errorf("session: game %s: %w", g.ID, ErrExpired)
}

// expire ends the live game g for running out of time: an open challenge
// lapses; a duel before both players moved is aborted; in a duel the side
// to move loses; against the AI nobody wins.
func (t *Turn) expire(g *Game) (View, error) {
	b, err := g.board()
	if err != nil {
		return View{}, err
	}
	was := g.Status
	switch {
	case g.Status == Open:
		g.Status = Lapsed
	case g.abortable():
		g.Status, g.Winner = Aborted, engine.Empty
	case g.IsDuel():
		g.Status, g.Winner = Expired, g.ToMove().Opponent()
	default:
		g.Status, g.Winner = Expired, engine.Empty
	}
	return t.commitGame(g, b, was, nil)
}
