package session

import (
	"fmt"
	"sync"
	"time"
)

// Limits caps what one user or chat may hold at once. Zero fields mean no
// limit.
type Limits struct {
	// GamesPerUser is how many live games (open challenges and running
	// games) a user may take part in across all chats of a platform.
	GamesPerUser int
	// GamesPerChat is how many live games a chat may hold.
	GamesPerChat int
	// ChallengeCooldown is how long a user waits between two challenges
	// (a duel rematch counts as one). It is a rate limit kept in memory,
	// empty after a restart; an update handled twice makes one challenge
	// whatever it is, through the update marks (Request.Update).
	ChallengeCooldown time.Duration
	// UndosPerGame is how many takebacks one game may have.
	UndosPerGame int
	// HintsPerGame is how many hints (Service.Hint) the player of a game
	// against the AI may ask for; unlike the fields above, zero means
	// none. A game keeps the number it started with.
	HintsPerGame int
}

// check returns ErrChatGames when the chat of who already holds
// l.GamesPerChat live games, or ErrUserGames when who takes part in
// l.GamesPerUser live games in any chat; it counts in tx, so the check and
// the write that follows it are one transaction.
func (l Limits) check(tx layout, who Actor) error {
	if l.GamesPerChat > 0 {
		ids, err := tx.LiveGames(who.Platform, who.Chat)
		if err != nil {
			return err
		}
		if len(ids) >= l.GamesPerChat {
			return fmt.Errorf("session: %s chat %q has %d live games: %w", who.Platform, who.Chat, len(ids), ErrChatGames)
		}
	}
	if l.GamesPerUser > 0 && who.User.ID != "" {
		ids, err := tx.UserLiveGames(who.Platform, who.User.ID)
		if err != nil {
			return err
		}
		if len(ids) >= l.GamesPerUser {
			return fmt.Errorf("session: user %q has %d live games on %s: %w", who.User.ID, len(ids), who.Platform, ErrUserGames)
		}
	}
	return nil
}

// cooldowns remembers when each user last made a challenge.
type cooldowns struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// cooldownPrune is how many users cooldowns remembers before it forgets
// those whose cooldown is over.
const cooldownPrune = 4096

// wait returns how long the user key must still wait at now for a
// cooldown of d; zero when the user may challenge.
func (c *cooldowns) wait(key string, now time.Time, d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.last[key]; ok && now.Before(t.Add(d)) {
		return t.Add(d).Sub(now)
	}
	return 0
}

// mark records that the user key made a challenge at now.
func (c *cooldowns) mark(key string, now time.Time, d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = make(map[string]time.Time)
	}
	if len(c.last) >= cooldownPrune {
		for k, t := range c.last {
			if !now.Before(t.Add(d)) {
				delete(c.last, k)
			}
		}
	}
	c.last[key] = now
}

// checkCooldown returns ErrCooldown when who made a challenge less than
// the cooldown ago.
func (s *Service) checkCooldown(who Actor) error {
	if w := s.cooldowns.wait(string(userKey(who.Platform, "", who.User.ID)), s.now(), s.lim.ChallengeCooldown); w > 0 {
		return fmt.Errorf("session: challenge by %q: %w (%v left)", who.User.ID, ErrCooldown, w.Round(time.Second))
	}
	return nil
}

// markCooldown starts who's cooldown.
func (s *Service) markCooldown(who Actor) {
	s.cooldowns.mark(string(userKey(who.Platform, "", who.User.ID)), s.now(), s.lim.ChallengeCooldown)
}

// checkUser returns ErrUserGames when the actor already takes part in
// Limits.GamesPerUser live games.
func (t *Turn) checkUser() error {
	if t.s.lim.GamesPerUser <= 0 {
		return nil
	}
	return Limits{GamesPerUser: t.s.lim.GamesPerUser}.check(t.tx(), t.req.Actor)
}
