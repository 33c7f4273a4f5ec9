package session

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardbot/boardbot/engine"
)

// ChallengeRequest proposes a duel in a chat.
type ChallengeRequest struct {
	Rules engine.Rules
	// Opponent is whom the challenge is for. The zero User makes an open
	// challenge anyone else in the chat may accept. A user with an ID is
	// matched by ID alone; one without is matched by Handle (with or
	// without '@'), exactly but ignoring case, and only against users who
	// have that handle. Names are never matched: an opponent with only a
	// Name is refused with ErrNameOnly.
	Opponent User
	// Side is the challenger's colour: First (black), Second, or
	// RandomSide.
	Side Side
	// Alone is as for StartRequest: for a chat that is one message.
	Alone bool
}

// Challenge creates an open challenge: a game waiting for its opponent,
// which expires after Config.ChallengeTTL. Invalid rules, no user, or a
// challenge to oneself give ErrBadRequest, an opponent with only a name
// ErrNameOnly. Limits give ErrCooldown, ErrUserGames and ErrChatGames.
func (t *Turn) Challenge(req ChallengeRequest) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	if err := req.Rules.Validate(); err != nil {
		return View{}, fmt.Errorf("session: challenge: %w: %w", ErrBadRequest, err)
	}
	opp := req.Opponent
	opp.Handle = strings.TrimPrefix(opp.Handle, "@")
	switch {
	case who.User.ID == "":
		return View{}, fmt.Errorf("session: challenge: %w: no user", ErrBadRequest)
	case req.Side > RandomSide:
		return View{}, fmt.Errorf("session: challenge: %w: side %d", ErrBadRequest, req.Side)
	case opp.ID == "" && opp.Handle == "" && opp.Name != "":
		return View{}, fmt.Errorf("session: challenge to %q: %w", opp.Name, ErrNameOnly)
	case isAddressee(opp, who.User):
		return View{}, fmt.Errorf("session: challenge: %w: to oneself", ErrBadRequest)
	}
	if v, err := t.duplicate(); err != nil {
		return v, err
	}
	if err := t.s.checkCooldown(who); err != nil {
		return View{}, err
	}
	g := t.s.newGame(who, req.Rules, Open)
	me, them := Seat{User: who.User}, Seat{User: opp}
	g.Seats, g.Challenger = [2]Seat{me, them}, engine.Black
	if pickSide(req.Side, g.Seed) == Second {
		g.Seats, g.Challenger = [2]Seat{them, me}, engine.White
	}
	var alone func(lt layout, id GameID) error
	if req.Alone {
		alone = ownChat(who)
	}
	v, err := t.create(&g, nil, alone)
	if err != nil {
		return v, fmt.Errorf("session: challenge: %w", err)
	}
	t.s.markCooldown(who)
	return v, nil
}

// Accept starts the duel of an open challenge with the actor in the
// challenged seat. Accepting a challenge the actor already accepted
// returns the game. Refusals: ErrNotFound, ErrNotForYou, ErrNotOpen, and
// ErrExpired with the lapsed challenge, and ErrUserGames when the actor
// already takes part in Limits.GamesPerUser live games in the chat.
func (t *Turn) Accept(id GameID) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	return t.answer(id, "accept", func(g *Game, role role) error {
		if role != challenged && role != addressee {
			return ErrNotForYou
		}
		if err := t.checkUser(); err != nil {
			return err
		}
		g.Seats[g.Challenger.Opponent()-1] = Seat{User: who.User}
		g.Status = Running
		return nil
	})
}

// Decline turns down a challenge addressed to the actor. Refusals:
// ErrNotFound, ErrNotForYou (an open challenge, or one for someone else:
// only its addressee declines), ErrNotOpen, and ErrExpired with the lapsed
// challenge.
func (t *Turn) Decline(id GameID) (shown View, err error) {
	defer t.verdict(&shown, &err)
	return t.answer(id, "decline", func(g *Game, role role) error {
		if role != addressee {
			return ErrNotForYou
		}
		g.Status = Declined
		return nil
	})
}

// Cancel withdraws the actor's own challenge. Refusals: ErrNotFound,
// ErrNotForYou, ErrNotOpen, and ErrExpired with the lapsed challenge.
func (t *Turn) Cancel(id GameID) (shown View, err error) {
	defer t.verdict(&shown, &err)
	return t.answer(id, "cancel", func(g *Game, role role) error {
		if role != challenger {
			return ErrNotForYou
		}
		g.Status = Cancelled
		return nil
	})
}

// role is how a user stands to a challenge.
type role uint8

const (
	// bystander may not touch the challenge.
	bystander role = iota
	// challenger made it.
	challenger
	// addressee is the user it names.
	addressee
	// challenged is anyone else, for an open challenge to all.
	challenged
)

// roleOf returns how u stands to the open challenge g.
func roleOf(g *Game, u User) role {
	opp := g.Seat(g.Challenger.Opponent()).User
	switch {
	case u.ID == "":
		return bystander
	case g.Seat(g.Challenger).User.ID == u.ID:
		return challenger
	case opp == (User{}):
		return challenged
	case isAddressee(opp, u):
		return addressee
	}
	return bystander
}

// isAddressee reports whether u is the user a challenge addressed to opp
// is for: the same id when opp has one, else the same handle (ignoring
// case), never the same name.
func isAddressee(opp, u User) bool {
	if opp.ID != "" {
		return opp.ID == u.ID
	}
	return opp.Handle != "" && strings.EqualFold(opp.Handle, u.Handle)
}

// IsFor reports whether u may accept or decline the open challenge v
// because it is addressed to them (not because it is open to anyone).
func (v View) IsFor(u User) bool {
	return v.g.Status == Open && u.ID != "" && v.g.Challenger != 0 && roleOf(&v.g, u) == addressee
}

// answer applies change to an open challenge on behalf of the actor and
// commits it.
func (t *Turn) answer(id GameID, what string, change func(*Game, role) error) (View, error) {
	who := t.req.Actor
	defer t.s.locks.lock(string(id))()
	return t.change(t.loader(id), func(g *Game) (Status, bool, error) {
		if g.Status != Open {
			if what == "accept" && g.Status.Played() && g.Challenger != engine.Empty &&
				g.SideOf(who.User.ID) == g.Challenger.Opponent() {
				// A doubled Accept: the actor already holds the seat.
				return g.Status, false, nil
			}
			if g.Status == Lapsed {
				return "", false, fmt.Errorf("session: %s challenge %s: %w", what, id, ErrExpired)
			}
			if g.Challenger == engine.Empty {
				return "", false, fmt.Errorf("session: %s game %s: %w: not a challenge", what, id, ErrNotForYou)
			}
			return "", false, fmt.Errorf("session: %s challenge %s (%s): %w", what, id, g.Status, ErrNotOpen)
		}
		if err := change(g, roleOf(g, who.User)); err != nil {
			return "", false, fmt.Errorf("session: %s challenge %s by %q: %w", what, id, who.User.ID, err)
		}
		t.s.touch(g)
		return Open, true, nil
	})
}

// Rematch starts a game with the rules of a finished one and the colours
// swapped, and returns it. Against the AI the game starts at once. In a
// duel the first request is a challenge to the other player (it lapses
// like any other), and the other player's request accepts it. Every
// request after the first returns that same game, unless its challenge
// was declined, cancelled or lapsed: then a new one is made. Refusals:
// ErrNotFound, ErrNotAPlayer, ErrNotOver, ErrNotStarted (a challenge that
// never became a game), and ErrAlreadyPlaying with the actor's running
// game against the AI. A new game or challenge is subject to the limits
// (ErrUserGames, ErrChatGames, and ErrCooldown for a challenge) and, when
// the AI moves first, ErrBusy.
func (t *Turn) Rematch(id GameID) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	defer t.s.locks.lock(string(id))()
	if v, err := t.duplicate(); err != nil {
		return v, err
	}
	old, err := t.loadFor(id)
	if err != nil {
		return View{}, err
	}
	if old.Rematch != "" {
		if old.SideOf(who.User.ID) == engine.Empty {
			return View{}, fmt.Errorf("session: rematch of %s by %q: %w", id, who.User.ID, ErrNotAPlayer)
		}
		if v, done, err := t.joinRematch(old.Rematch); done || err != nil {
			return v, err
		}
	}
	// A game that expires now may be rematched like any other.
	if _, err := t.expireIfDue(&old); err != nil && !errors.Is(err, ErrExpired) {
		return View{}, err
	}
	switch {
	case old.SideOf(who.User.ID) == engine.Empty:
		return View{}, fmt.Errorf("session: rematch of %s by %q: %w", id, who.User.ID, ErrNotAPlayer)
	case !old.Status.Played():
		return View{}, fmt.Errorf("session: rematch of %s: %w", id, ErrNotStarted)
	case !old.Status.Over():
		return View{}, fmt.Errorf("session: rematch of %s: %w", id, ErrNotOver)
	}
	g := t.s.newGame(who, old.Rules, Running)
	g.Seats = [2]Seat{old.Seats[1], old.Seats[0]}
	for i := range g.Seats {
		// An adaptive AI meets the player at their rating as it is now.
		if err := t.adapt(&g.Seats[i], who.User.ID, old.Rules); err != nil {
			return View{}, err
		}
	}
	var check func() (View, error)
	if g.IsDuel() {
		g.Status, g.Challenger = Open, g.SideOf(who.User.ID)
		if err := t.s.checkCooldown(who); err != nil {
			return View{}, err
		}
	} else {
		defer t.s.lockStart(who.Platform, who.Chat, who.User.ID)()
		check = t.runningAI
	}
	now := g.Created
	v, err := t.create(&g, check, func(lt layout, newID GameID) error {
		o, err := lt.Game(id)
		if err != nil {
			return err
		}
		if o.Version != old.Version {
			return fmt.Errorf("session: rematch of %s: %w", id, ErrConflict)
		}
		o.Rematch, o.Version, o.Updated = newID, o.Version+1, now
		return lt.PutGame(o)
	})
	if err != nil {
		return v, fmt.Errorf("session: rematch of %s: %w", id, err)
	}
	if g.IsDuel() {
		t.s.markCooldown(who)
	}
	return v, nil
}

// joinRematch answers a later request for the rematch id: the other
// player of a duel accepts its challenge, anyone else gets the game as it
// is. It reports done false when the rematch challenge is dead (declined,
// cancelled or lapsed), so that a new one should be made. The caller holds
// the lock of the finished game.
func (t *Turn) joinRematch(id GameID) (View, bool, error) {
	v, err := t.Game(id)
	if err != nil {
		return View{}, false, err
	}
	switch {
	case v.Status() == Open && v.SideOf(t.req.Actor.User.ID) == v.Challenger().Opponent():
		v, err := t.Accept(id)
		if errors.Is(err, ErrExpired) {
			return v, false, nil
		}
		return v, true, err
	case v.Status() != Open && !v.Status().Played():
		return v, false, nil
	}
	return v, true, nil
}
