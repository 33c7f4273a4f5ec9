package session

import (
	"errors"

	"github.com/boardbot/boardbot/engine"
)

// Refusals and store errors returned by Service and Store methods; callers
// match them with errors.Is and map them to messages.
var (
	// ErrNotFound is returned when no game has the given id, or the chat
	// has no game for the user or message asked about.
	ErrNotFound = errors.New("no such game")
	// ErrGameOver is returned by Place and Resign when the game has
	// already ended.
	ErrGameOver = errors.New("game is over")
	// ErrNotAPlayer is returned when the caller is not one of the game's
	// players.
	ErrNotAPlayer = errors.New("not a player in this game")
	// ErrNotYourTurn is returned by Place when the caller plays but it is
	// the other side's turn.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrStale is returned by Place when the move number in the request is
	// not the game's current one: a doubled or outdated tap.
	ErrStale = errors.New("stale move")
	// ErrOffBoard is returned by Place for a cell outside the board.
	ErrOffBoard = errors.New("cell is off the board")
	// ErrCellTaken is returned by Place for a cell that holds a stone.
	ErrCellTaken = errors.New("cell is taken")
	// ErrAlreadyPlaying is returned by Start, together with a view of that
	// game, when the user already has a running game against the AI in
	// the chat.
	ErrAlreadyPlaying = errors.New("already in a game")
	// ErrExpired is returned, together with a view of the ended game, by
	// an action on a game or challenge whose deadline passed: the action
	// ends it as expired (or lapsed) instead.
	ErrExpired = errors.New("game expired")
	// ErrNotForYou is returned by Accept, Decline and Cancel when the
	// caller may not do that to the challenge: it is addressed to someone
	// else, it is the caller's own (Accept, Decline), or someone else's
	// (Cancel).
	ErrNotForYou = errors.New("challenge is not for you")
	// ErrNotOpen is returned by Accept, Decline and Cancel when the
	// challenge was already accepted, declined or cancelled.
	ErrNotOpen = errors.New("challenge is no longer open")
	// ErrNotStarted is returned by Place and Resign on an open challenge,
	// and by Rematch on a challenge that never became a game.
	ErrNotStarted = errors.New("game has not started")
	// ErrNotOver is returned by Rematch when the game is still running.
	ErrNotOver = errors.New("game is still running")
	// ErrBusy is returned by Place, Start and Rematch when the AI would
	// have to search but every AI worker is busy and its queue is full;
	// nothing changed, and the same request may succeed in a moment.
	ErrBusy = errors.New("AI is busy")
	// ErrUserGames is returned by Start, Challenge, Rematch and Accept
	// when the user already takes part in Limits.GamesPerUser live games
	// in the chat.
	ErrUserGames = errors.New("too many games for this user")
	// ErrChatGames is returned by Start, Challenge and Rematch when the
	// chat already holds Limits.GamesPerChat live games.
	ErrChatGames = errors.New("too many games in this chat")
	// ErrCooldown is returned by Challenge and by a duel's Rematch when the
	// user made a challenge less than Limits.ChallengeCooldown ago.
	ErrCooldown = errors.New("challenging too often")
	// ErrDuplicate is returned, with a view of the game it changed when
	// there is one, by a change of a Turn handling an update when another
	// handling of the same platform update already took effect: the
	// update was delivered or replayed twice, and nothing changed again.
	ErrDuplicate = errors.New("update already handled")
	// ErrNameOnly is returned by Challenge when the opponent is given
	// only by a display name, which anyone may take: an addressee needs
	// a user id or a handle.
	ErrNameOnly = errors.New("opponent given only by a display name")
	// ErrBadRequest is returned when a request's fields are invalid, such
	// as an unknown level or out-of-range rules.
	ErrBadRequest = errors.New("bad request")
	// ErrConflict is returned by a store when a game changed since it was
	// read: another writer committed first.
	ErrConflict = errors.New("game changed concurrently")
	// ErrSchema is returned when a stored record has a schema this
	// release does not know, or cannot be decoded.
	ErrSchema = errors.New("unreadable record")
	// ErrNoUndo is returned by Undo when the caller has no move on the
	// board to take back.
	ErrNoUndo = errors.New("no move to take back")
	// ErrUndoLimit is returned by Undo and AcceptUndo when the game has
	// had Limits.UndosPerGame takebacks already.
	ErrUndoLimit = errors.New("no takebacks left in this game")
	// ErrNoUndoRequest is returned by AcceptUndo and DeclineUndo when the
	// caller's opponent has no takeback request pending.
	ErrNoUndoRequest = errors.New("no takeback request to answer")
	// ErrHintDuel is returned by Hint in a duel: hints are only against
	// the AI.
	ErrHintDuel = errors.New("no hints in a duel")
	// ErrHintLimit is returned by Hint when the game has had all the
	// hints it allows (none, when it started with hints off).
	ErrHintLimit = errors.New("no hints left in this game")
	// ErrSentRecently is returned by ClaimSend when the same was sent to
	// the user less than SendGap ago: a doubled tap.
	ErrSentRecently = errors.New("sent a moment ago")
)

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
	{ErrSentRecently, "sent_recently"},
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
