package adapters

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Tap decides what the tap of a button with callback data does on
// message req.Message: the data is decoded once, and the game it names is
// read with the rest of the request's reads, once. The message must show
// that game: be the game's own message, or come with that button
// (req.HasButton), and then become the game's own; any other tap is
// refused and changes nothing, so that forged data cannot repaint someone
// else's message.
func (d *Dispatcher) Tap(ctx context.Context, req Request, data string) Decision {
	a, err := DecodeAction(data)
	return d.decide(ctx, req, a.Game, func(b *builder) Decision {
		if err != nil {
			b.refused(ReasonBadCallback)
			return b.notice(render.T(b.lang, render.MsgBadCallback))
		}
		return b.tap(a)
	})
}

// tap decides a decoded tap.
func (b *builder) tap(a render.Action) Decision {
	switch {
	case a.Kind == render.Noop && a.Game == "":
		return b.done()
	case a.Kind == render.ReplayGame || a.Kind == render.ExportGame:
		return b.send(a)
	case a.Kind == render.StatsChart:
		return b.chartAgain()
	}
	shown, err := b.t.Game(a.Game)
	if err == nil && (shown.Platform() != b.d.platform || shown.Chat() != b.req.Chat) {
		err = fmt.Errorf("adapters: tap on game %s from another chat: %w", a.Game, session.ErrNotFound)
	}
	if err != nil {
		return b.refuse(session.View{}, err, false)
	}
	if b.req.Message == "" || (b.req.Message != shown.Message() && !b.req.HasButton) {
		// Data naming a game that the tapped message does not show: a
		// forged button must not repaint someone else's message.
		b.refused(ReasonBadCallback)
		return b.notice(render.T(b.lang, render.MsgBadCallback))
	}
	dec := b.apply(a, shown)
	tapped := Place{Platform: b.d.platform, Chat: b.req.Chat, Message: b.req.Message}
	for _, e := range dec.Effects {
		if s, ok := e.(Show); ok && s.Game.ID() == a.Game && s.At == tapped && s.Game.Message() != b.req.Message {
			// A board the game was not bound to, such as one sent just
			// before a crash: it becomes the game's own message.
			b.t.Bind(a.Game, b.req.Message)
		}
	}
	return dec
}

// apply applies action a, tapped on message req.Message, which shows
// game shown.
func (b *builder) apply(a render.Action, shown session.View) Decision {
	tapped := Place{Platform: b.d.platform, Chat: b.req.Chat, Message: b.req.Message}
	switch a.Kind {
	case render.Hint:
		return b.hint(session.HintRequest{Game: a.Game, MoveNo: a.MoveNo}, tapped, false)
	case render.Rematch:
		return b.rematch(a.Game, false)
	case render.Scroll:
		// Moving the window changes no game; anyone in the game's chat
		// may move it.
		return b.showAt(shown, tapped, &a.Window, false)
	case render.Noop:
		return b.noop(a, shown, tapped)
	case render.Show:
		return b.showGame(a, shown)
	}
	v, ok, err := b.call(a.Kind, a)
	if !ok {
		return b.done()
	}
	// A cell keeps the window it was tapped in (while that holds the last
	// move); other buttons show the window around the last move.
	var window *engine.Point
	if a.Kind == render.Place {
		window = &a.Window
	}
	if err != nil {
		if v.ID() == "" && (errors.Is(err, session.ErrStale) || errors.Is(err, session.ErrGameOver)) {
			// A board left behind (say by a crash between the commit of
			// a move and the edit of its message) catches up.
			v = b.current(a.Game)
		}
		if v.ID() != "" {
			b.showAt(v, tapped, window, window != nil)
		}
		if errors.Is(err, session.ErrDuplicate) {
			return b.done()
		}
		return b.refuse(session.View{}, err, false)
	}
	return b.showAt(v, tapped, window, window != nil)
}

// call makes the service call of an action of kind that changes game
// a.Game and returns the game after it; ok is false for a kind that is
// not such a call.
func (b *builder) call(kind render.ActionKind, a render.Action) (v session.View, ok bool, err error) {
	t := b.t
	undo := session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo}
	switch kind {
	case render.Place:
		v, err = t.Place(session.PlaceRequest{Game: a.Game, MoveNo: a.MoveNo, Cell: a.Cell})
	case render.Resign:
		v, err = t.Resign(a.Game)
	case render.Accept:
		v, err = t.Accept(a.Game)
	case render.Decline:
		v, err = t.Decline(a.Game)
	case render.Cancel:
		v, err = t.Cancel(a.Game)
	case render.Undo:
		v, err = t.Undo(undo)
	case render.UndoAccept:
		v, err = t.AcceptUndo(undo)
	case render.UndoDecline:
		v, err = t.DeclineUndo(undo)
	case render.Hint:
		v, err = t.Hint(session.HintRequest{Game: a.Game, MoveNo: a.MoveNo})
	default:
		return v, false, nil
	}
	return v, true, err
}

// hintLimit returns the notice of a hint refused because the game's hints
// are used up, saying how many it had; "" for any other outcome.
func (b *builder) hintLimit(v session.View, err error) string {
	if errors.Is(err, session.ErrHintLimit) && v.Hints() > 0 {
		return render.T(b.lang, render.MsgHintLimit, v.Hints())
	}
	return ""
}

// current returns the game of a stale tap as it is now, to refresh the
// tapped message with; the zero View when it cannot be read.
func (b *builder) current(id session.GameID) session.View {
	v, err := b.t.Game(id)
	if err != nil {
		return session.View{}
	}
	return v
}

// hint asks for a hint and shows the game with it at message at, its
// window moved to the hint. A refusal for the hints used up says how many
// the game had.
func (b *builder) hint(req session.HintRequest, at Place, typed bool) Decision {
	v, err := b.t.Hint(req)
	if msg := b.hintLimit(v, err); msg != "" {
		if typed {
			return b.say(msg, nil)
		}
		return b.notice(msg)
	}
	if err != nil {
		if !typed && v.ID() == "" && errors.Is(err, session.ErrStale) {
			if cur := b.current(req.Game); cur.ID() != "" {
				b.showAt(cur, at, nil, false)
			}
		}
		return b.refuse(v, err, typed)
	}
	return b.showAt(v, at, nil, false)
}

// showGame answers an answer of a question of which game, or of /games:
// while game v runs and the tapper plays it, it does what the answer
// carries in it (a.Then), if anything, and shows it as a new message
// (then the one on the actor's screen). A refusal changes nothing.
func (b *builder) showGame(a render.Action, v session.View) Decision {
	switch {
	case v.SideOf(b.req.User.ID) == 0:
		return b.notice(render.T(b.lang, render.MsgNotAPlayer))
	case v.Status() != session.Running:
		return b.notice(render.T(b.lang, render.MsgGameOver))
	}
	if then, ok, err := b.call(a.Then, a); ok {
		if msg := b.hintLimit(then, err); msg != "" {
			return b.notice(msg)
		}
		if err != nil {
			return b.refuse(then, err, false)
		}
		v = then
	}
	return b.showNew(v, "")
}

// noop answers the tap of a cell that takes no stone: the game is over,
// or the cell is taken. A cell found empty in a running game is on a board
// left behind, which is shown again. A control that does nothing answers
// nothing.
func (b *builder) noop(a render.Action, v session.View, tapped Place) Decision {
	switch {
	case v.Status().Over():
		return b.notice(render.T(b.lang, render.MsgGameOver))
	case v.Status() != session.Running:
		return b.done()
	case a.Cell.X >= v.Rules().Width || a.Cell.Y >= v.Rules().Height:
		return b.notice(render.T(b.lang, render.MsgOffBoard))
	case v.Board().At(a.Cell) != engine.Empty:
		return b.notice(render.T(b.lang, render.MsgCellTaken))
	}
	return b.showAt(v, tapped, nil, false)
}

// MaxCallbackLen is the longest callback data any platform takes
// (Telegram's limit; Discord allows 100).
const MaxCallbackLen = 64

// ErrBadCallback is returned by DecodeAction for data no button of this bot
// produced: garbage, oversize, or a malformed field.
var ErrBadCallback = errors.New("adapters: bad callback data")

// Callback data is text: a kind letter and its fields joined by ':'.
//
//	p:<game>:<move>:<x>:<y>   place a stone (render.Place)
//	p:<game>:<move>:<x>:<y>:<wx>:<wy>  the same, tapped in the window
//	                          whose top-left cell is wx,wy (not 0,0)
//	s:<game>:<x>:<y>          show the board window at x,y (render.Scroll)
//	r:<game>                  resign (render.Resign)
//	R:<game>                  rematch (render.Rematch)
//	a:<game>, d:<game>, c:<game>  accept, decline, cancel a challenge
//	u:<game>:<move>           take back a move (render.Undo)
//	y:<game>:<move>, x:<game>:<move>  allow, refuse a takeback
//	h:<game>:<move>           ask for a hint (render.Hint)
//	n                         a button that does nothing (render.Noop)
//	k                         send the tapper's chart again (render.StatsChart)
//	f:<game>                  show the game, for typed moves (render.Show)
//	f:<action>                do action in its game, then show it: an
//	                          r, u, h or p (without a window) above
//	                          (render.Show with Then)
//	v:<game>                  send the replay of a finished game (render.ReplayGame)
//	e:<game>                  send the record of a finished game (render.ExportGame)
//	n                         a control that does nothing (render.Noop)
//	n:<game>:<x>:<y>          a cell that takes no stone (render.Noop)
//
// Numbers are decimal without sign or leading zeros; game ids are
// [0-9a-z] of at most 16 characters. Decoding accepts exactly what
// EncodeAction produces.
const maxGameIDLen = 16

// gameOnly maps the letters of actions whose only field is the game to
// their kinds.
var gameOnly = map[string]render.ActionKind{
	"r": render.Resign, "R": render.Rematch, "a": render.Accept, "d": render.Decline, "c": render.Cancel,
	"f": render.Show, "v": render.ReplayGame, "e": render.ExportGame,
}

// atMove maps the letters of actions whose fields are the game and the
// move number to their kinds.
var atMove = map[string]render.ActionKind{
	"u": render.Undo, "y": render.UndoAccept, "x": render.UndoDecline, "h": render.Hint,
}

// EncodeAction returns the callback data of a button's action.
func EncodeAction(a render.Action) string {
	if a.Kind == render.Show && a.Then != render.Noop {
		return "f:" + EncodeAction(render.Action{Kind: a.Then, Game: a.Game, MoveNo: a.MoveNo, Cell: a.Cell})
	}
	for letter, kind := range atMove {
		if kind == a.Kind {
			return fmt.Sprintf("%s:%s:%d", letter, a.Game, a.MoveNo)
		}
	}
	switch a.Kind {
	case render.Place:
		if a.Window != (engine.Point{}) {
			return fmt.Sprintf("p:%s:%d:%d:%d:%d:%d", a.Game, a.MoveNo, a.Cell.X, a.Cell.Y, a.Window.X, a.Window.Y)
		}
		return fmt.Sprintf("p:%s:%d:%d:%d", a.Game, a.MoveNo, a.Cell.X, a.Cell.Y)
	case render.Scroll:
		return fmt.Sprintf("s:%s:%d:%d", a.Game, a.Window.X, a.Window.Y)
	case render.StatsChart:
		return "k"
	case render.Noop:
		if a.Game != "" {
			return fmt.Sprintf("n:%s:%d:%d", a.Game, a.Cell.X, a.Cell.Y)
		}
		return "n"
	}
	for letter, kind := range gameOnly {
		if kind == a.Kind {
			return letter + ":" + string(a.Game)
		}
	}
	return "n"
}

// DecodeAction parses callback data made by EncodeAction. Anything else
// gives an error wrapping ErrBadCallback.
func DecodeAction(data string) (render.Action, error) {
	bad := func(why string) (render.Action, error) {
		if len(data) > 80 {
			data = data[:80] + "…"
		}
		return render.Action{}, fmt.Errorf("%w: %s: %q", ErrBadCallback, why, data)
	}
	if len(data) > MaxCallbackLen {
		return bad("too long")
	}
	if then, ok := strings.CutPrefix(data, "f:"); ok && strings.Contains(then, ":") {
		return decodeThen(then, bad)
	}
	f := strings.Split(data, ":")
	var a render.Action
	kind, isGameOnly := gameOnly[f[0]]
	moveKind, isAtMove := atMove[f[0]]
	switch {
	case f[0] == "n" && len(f) == 1:
		return render.Action{Kind: render.Noop}, nil
	case f[0] == "k" && len(f) == 1:
		return render.Action{Kind: render.StatsChart}, nil
	case isGameOnly && len(f) == 2:
		a.Kind = kind
	case isAtMove && len(f) == 3:
		a.Kind = moveKind
	case f[0] == "p" && (len(f) == 5 || len(f) == 7):
		a.Kind = render.Place
	case f[0] == "s" && len(f) == 4:
		a.Kind = render.Scroll
	case f[0] == "n" && len(f) == 4:
		a.Kind = render.Noop
	default:
		return bad("unknown kind")
	}
	if !validGameID(f[1]) {
		return bad("game id")
	}
	a.Game = session.GameID(f[1])
	nums := make([]int, len(f)-2)
	for i, s := range f[2:] {
		n, ok := parseNat(s)
		if !ok {
			return bad("number")
		}
		nums[i] = n
	}
	switch a.Kind {
	case render.Place:
		if nums[0] >= engine.MaxSize*engine.MaxSize || nums[1] >= engine.MaxSize || nums[2] >= engine.MaxSize {
			return bad("out of range")
		}
		a.MoveNo, a.Cell = nums[0], engine.Point{X: nums[1], Y: nums[2]}
		if len(nums) == 5 {
			if nums[3] >= engine.MaxSize || nums[4] >= engine.MaxSize || nums[3]+nums[4] == 0 {
				return bad("window")
			}
			a.Window = engine.Point{X: nums[3], Y: nums[4]}
		}
	case render.Scroll:
		if nums[0] >= engine.MaxSize || nums[1] >= engine.MaxSize {
			return bad("out of range")
		}
		a.Window = engine.Point{X: nums[0], Y: nums[1]}
	case render.Undo, render.UndoAccept, render.UndoDecline, render.Hint:
		if nums[0] > engine.MaxSize*engine.MaxSize {
			return bad("out of range")
		}
		a.MoveNo = nums[0]
	case render.Noop:
		if nums[0] >= engine.MaxSize || nums[1] >= engine.MaxSize {
			return bad("out of range")
		}
		a.Cell = engine.Point{X: nums[0], Y: nums[1]}
	}
	return a, nil
}

// thenKinds are the actions an answer of a which-game question may do in
// the game chosen (render.Action.Then).
var thenKinds = map[render.ActionKind]bool{render.Resign: true, render.Undo: true, render.Hint: true, render.Place: true}

// decodeThen decodes the action data of a Show that does it (the data
// after "f:"); bad makes its errors.
func decodeThen(data string, bad func(string) (render.Action, error)) (render.Action, error) {
	a, err := DecodeAction(data)
	if err != nil || !thenKinds[a.Kind] || a.Window != (engine.Point{}) {
		return bad("answer")
	}
	return render.Action{Kind: render.Show, Game: a.Game, MoveNo: a.MoveNo, Cell: a.Cell, Then: a.Kind}, nil
}

// validGameID reports whether s has the shape of a game id.
func validGameID(s string) bool {
	if s == "" || len(s) > maxGameIDLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// parseNat parses a canonical non-negative decimal of at most 4 digits.
func parseNat(s string) (int, bool) {
	if s == "" || len(s) > 4 || (s[0] == '0' && len(s) > 1) || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
