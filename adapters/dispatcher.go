package adapters

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Request says who acts, where, and in which language to answer.
type Request struct {
	Chat string
	User session.User
	// Locale is the user's language code as the platform reports it.
	Locale string
	// Message is the id of the message whose button was tapped; empty for
	// typed commands.
	Message string
}

// Reply is what the platform adapter shows after an action. Any of its
// parts may be empty; an empty Reply means there is nothing to show.
type Reply struct {
	// Lang is the language every text in the reply is in, and the one to
	// render the game in.
	Lang render.Lang
	// Text is a message for the chat, answering a typed command.
	Text string
	// Game is a game to show. When Edit is set, the message Edit names
	// shows it and is edited in place; otherwise the adapter sends a new
	// board message and records it with Dispatcher.Bind.
	Game *session.View
	Edit string
	// Window is the top-left cell of the board window to show on a board
	// larger than the keyboard (render.BoardKeyboard's window); nil shows
	// the window around the last move.
	Window *engine.Point
	// Notice is a short refusal for the acting user only (a toast or an
	// ephemeral reply); the chat sees nothing.
	Notice string
}

// Dispatcher turns commands, taps and typed moves into session calls and
// their results into Replies. It is safe for concurrent use.
type Dispatcher struct {
	svc      *session.Service
	platform session.Platform
	botName  string
	log      *slog.Logger
}

// NewDispatcher returns the dispatcher of one platform. botName is the
// bot's username, for commands addressed as /play@botName; log may be nil.
func NewDispatcher(svc *session.Service, platform session.Platform, botName string, log *slog.Logger) *Dispatcher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Dispatcher{svc: svc, platform: platform, botName: botName, log: log}
}

// actor returns the session actor of a request.
func (d *Dispatcher) actor(req Request) session.Actor {
	return session.Actor{Platform: d.platform, Chat: req.Chat, User: req.User}
}

// Command handles a typed command such as "/play hard". Text that is not a
// command, or a command for another bot, gives an empty Reply.
func (d *Dispatcher) Command(ctx context.Context, req Request, text string) Reply {
	lang := render.LangOf(req.Locale)
	cmd, err := ParseCommand(text, d.botName)
	switch {
	case errors.Is(err, ErrNotCommand), errors.Is(err, ErrOtherBot):
		return Reply{}
	case err != nil:
		return Reply{Lang: lang, Text: render.ErrorText(lang, err)}
	}
	switch cmd.Name {
	case CmdStart:
		return Reply{Lang: lang, Text: render.T(lang, render.MsgWelcome)}
	case CmdHelp:
		return Reply{Lang: lang, Text: render.T(lang, render.MsgHelp)}
	case CmdPlay:
		v, err := d.svc.Start(ctx, d.actor(req), session.StartRequest{Rules: cmd.Play.Rules, Level: cmd.Play.Level, Side: cmd.Play.Side})
		if errors.Is(err, session.ErrAlreadyPlaying) {
			// Show the running game again, below the notice.
			return Reply{Lang: lang, Text: render.ErrorText(lang, err), Game: &v}
		}
		if err != nil {
			return d.refuse(lang, err, true)
		}
		return Reply{Lang: lang, Game: &v}
	case CmdResign:
		v, err := d.svc.Running(ctx, d.actor(req))
		if errors.Is(err, session.ErrNotFound) {
			return Reply{Lang: lang, Text: render.T(lang, render.MsgNoGame)}
		}
		if err == nil {
			v, err = d.svc.Resign(ctx, d.actor(req), v.ID())
		}
		if err != nil {
			return d.refuse(lang, err, true)
		}
		return Reply{Lang: lang, Game: &v, Edit: v.Message()}
	}
	return Reply{Lang: lang, Text: render.T(lang, render.MsgUnknownCommand, text)}
}

// Resume returns the user's running game in the chat to show again, or an
// empty Reply when there is none.
func (d *Dispatcher) Resume(ctx context.Context, req Request) Reply {
	v, err := d.svc.Running(ctx, d.actor(req))
	if err != nil {
		return Reply{}
	}
	return Reply{Lang: render.LangOf(req.Locale), Game: &v}
}

// Tap handles the callback data of a tapped button on message
// req.Message.
func (d *Dispatcher) Tap(ctx context.Context, req Request, data string) Reply {
	lang := render.LangOf(req.Locale)
	a, err := DecodeAction(data)
	if err != nil {
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgBadCallback)}
	}
	var v session.View
	switch a.Kind {
	case render.Place:
		v, err = d.svc.Place(ctx, d.actor(req), session.PlaceRequest{Game: a.Game, MoveNo: a.MoveNo, Cell: a.Cell})
	case render.Resign:
		v, err = d.svc.Resign(ctx, d.actor(req), a.Game)
	case render.Scroll:
		// Moving the window changes no game; anyone in the game's chat
		// may move it.
		v, err = d.svc.Game(ctx, a.Game)
		if err == nil && (v.Platform() != d.platform || v.Chat() != req.Chat) {
			err = session.ErrNotFound
		}
		if err != nil {
			return d.refuse(lang, err, false)
		}
		return Reply{Lang: lang, Game: &v, Edit: req.Message, Window: &a.Window}
	case render.Rematch:
		return d.rematch(ctx, req, lang, a.Game)
	default:
		return Reply{Lang: lang}
	}
	if err != nil {
		return d.refuse(lang, err, false)
	}
	return Reply{Lang: lang, Game: &v, Edit: req.Message}
}

// Move handles typed text that may be a coordinate such as "h8": a stone
// in the user's running game in the chat. Text that is not a coordinate,
// or a user with no running game, gives an empty Reply, so that ordinary
// chat is left alone.
func (d *Dispatcher) Move(ctx context.Context, req Request, text string) Reply {
	lang := render.LangOf(req.Locale)
	text = strings.TrimSpace(text)
	if len(text) == 0 || len(text) > 4 {
		return Reply{}
	}
	v, err := d.svc.Running(ctx, d.actor(req))
	if err != nil {
		return Reply{}
	}
	p, err := render.ParseCoord(text, v.Rules())
	if err != nil {
		if looksLikeCoord(text) {
			return Reply{Lang: lang, Text: render.T(lang, render.MsgBadCoord, text)}
		}
		return Reply{}
	}
	v, err = d.svc.Place(ctx, d.actor(req), session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: p})
	if err != nil {
		return d.refuse(lang, err, true)
	}
	return Reply{Lang: lang, Game: &v, Edit: v.Message()}
}

// Bind records that message shows the game, so that later typed moves
// and commands edit it.
func (d *Dispatcher) Bind(ctx context.Context, id session.GameID, message string) error {
	_, err := d.svc.BindMessage(ctx, id, message)
	return err
}

// looksLikeCoord reports whether text is a letter and digits in either
// order, such as a coordinate off the board.
func looksLikeCoord(text string) bool {
	t := strings.ToLower(strings.ReplaceAll(text, " ", ""))
	if len(t) < 2 {
		return false
	}
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' }
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	return (isLetter(t[0]) && digits(t[1:])) || (isLetter(t[len(t)-1]) && digits(t[:len(t)-1]))
}

// refuse turns an error into a reply: a chat message for typed commands,
// a private notice for taps. Errors that are not refusals are logged.
func (d *Dispatcher) refuse(lang render.Lang, err error, typed bool) Reply {
	msg := render.ErrorText(lang, err)
	if msg == render.T(lang, render.MsgInternal) {
		d.log.Error("action failed", "platform", d.platform, "err", err)
	}
	if typed {
		return Reply{Lang: lang, Text: msg}
	}
	return Reply{Lang: lang, Notice: msg}
}
