package render

import (
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// IsChallenge reports whether v is a duel challenge rather than a game:
// open, or declined, cancelled or lapsed before it was accepted.
func IsChallenge(v session.View) bool {
	switch v.Status() {
	case session.Open, session.Declined, session.Cancelled, session.Lapsed:
		return true
	}
	return false
}

// Message returns the text and keyboard of the message that shows v in
// language l: for a challenge, ChallengeText and ChallengeKeyboard; for a
// game, Text and BoardKeyboard, and which cells the buttons are when they
// show part of the board (WindowText). The keyboard fits layout; window is
// as for BoardKeyboard.
func Message(v session.View, l Lang, layout Layout, window *engine.Point) (string, Keyboard) {
	if IsChallenge(v) {
		return ChallengeText(v, l), ChallengeKeyboard(v, l, layout)
	}
	text, kb := Text(v, l), BoardKeyboard(v, l, layout, window)
	if w := WindowText(v, kb, l); w != "" {
		text += "\n" + w
	}
	return text, kb
}

// ChallengeText returns the text of a challenge's message: who challenges
// whom to which game and with which colour while it is open, and how it
// ended once declined, cancelled or lapsed.
func ChallengeText(v session.View, l Lang) string {
	from := v.Challenger()
	if from == engine.Empty {
		return Text(v, l)
	}
	challenger := SeatName(v.Seat(from), l)
	to := v.Seat(from.Opponent()).User
	switch v.Status() {
	case session.Declined:
		return T(l, MsgChallengeDeclined, SeatName(session.Seat{User: to}, l))
	case session.Cancelled:
		return T(l, MsgChallengeCanceled, challenger)
	case session.Lapsed:
		return T(l, MsgChallengeLapsed, challenger)
	case session.Open:
		colour := T(l, MsgChallengerPlays, challenger, Stone(v.Rules(), from))
		if to == (session.User{}) {
			return T(l, MsgChallengeOpen, challenger, GameName(l, v.Rules()), colour)
		}
		return T(l, MsgChallengeTo, challenger, SeatName(session.Seat{User: to}, l), GameName(l, v.Rules()), colour)
	}
	return Text(v, l)
}

// ChallengeKeyboard returns the buttons of an open challenge within
// layout: Accept, Decline when it is addressed to someone, and Cancel for
// the challenger. An answered challenge has none.
func ChallengeKeyboard(v session.View, l Lang, layout Layout) Keyboard {
	if v.Status() != session.Open {
		return Keyboard{}
	}
	row := []Button{{Label: T(l, MsgAcceptButton), Action: Action{Kind: Accept, Game: v.ID()}}}
	if to := v.Seat(v.Challenger().Opponent()).User; to != (session.User{}) {
		row = append(row, Button{Label: T(l, MsgDeclineButton), Action: Action{Kind: Decline, Game: v.ID()}})
	}
	row = append(row, Button{Label: T(l, MsgCancelButton), Action: Action{Kind: Cancel, Game: v.ID()}})
	return Keyboard{Rows: chunk(row, layout)}
}
