package session

import (
	"errors"
	"time"

	"github.com/boardbot/boardbot/engine"
)

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

// nopObserver is the Observer of a Service configured without one.
type nopObserver struct{}

func (nopObserver) Moved(Platform, bool)                              {}
func (nopObserver) Refused(Platform, string)                          {}
func (nopObserver) Thought(engine.Level, engine.Rules, time.Duration) {}
func (nopObserver) Committed(time.Duration)                           {}

// reasons names the refusals for Reason.
var reasons = []struct {
	err  error
	name string
}{
	{ErrBusy, "busy"},
	{ErrUserGames, "user_games"},
	{ErrChatGames, "chat_games"},
	{ErrCooldown, "cooldown"},
	{ErrNotFound, "not_found"},
	{ErrGameOver, "game_over"},
	{ErrNotAPlayer, "not_a_player"},
	{ErrNotYourTurn, "not_your_turn"},
	{ErrStale, "stale"},
	{ErrConflict, "stale"},
	{ErrOffBoard, "off_board"},
	{ErrCellTaken, "cell_taken"},
	{engine.ErrForbidden, "forbidden"},
	{ErrAlreadyPlaying, "already_playing"},
	{ErrExpired, "expired"},
	{ErrNotForYou, "not_for_you"},
	{ErrNotOpen, "not_open"},
	{ErrNotStarted, "not_started"},
	{ErrNotOver, "not_over"},
	{ErrNameOnly, "name_only"},
	{ErrBadRequest, "bad_request"},
	{ErrNoUndo, "no_undo"},
	{ErrUndoLimit, "undo_limit"},
	{ErrNoUndoRequest, "no_undo_request"},
	{ErrHintDuel, "hint_duel"},
	{ErrHintLimit, "hint_limit"},
}

// Reason returns the short name of the refusal err wraps, such as "busy"
// or "stale", for counting refusals by reason; "" when err is nil or not
// a refusal (a store fault, a cancelled context).
func Reason(err error) string {
	if err == nil {
		return ""
	}
	for _, r := range reasons {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return ""
}

// Refused reports a refusal that happened before any game was touched,
// such as an unparsable command or forged callback data, to the
// service's observer, so that every refusal is counted in one place.
func (s *Service) Refused(p Platform, reason string) { s.observer.Refused(p, reason) }
