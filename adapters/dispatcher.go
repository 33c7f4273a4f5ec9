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

// Request says who acts, where, in which language to answer, and how the
// front it came through wants to hear of a long wait.
type Request struct {
	Chat string
	User session.User
	// Locale is the user's language code as the platform reports it.
	Locale string
	// Message is the id of the message whose button was tapped; empty for
	// typed commands.
	Message string
	// HasButton reports that the platform delivered message Message with
	// a button carrying the tap's very data, so that the message shows
	// that button's game. A tap on a message that is neither the game's
	// own nor vouched for this way is refused.
	HasButton bool
	// Admin, when set, reports whether the user may change the chat's
	// settings (/chatlang): an administrator of the chat, or anyone in a
	// private chat. Only such commands call it, so that a platform that
	// must ask its servers asks only then. Nil means the user may not.
	Admin func(context.Context) (bool, error)
	// Private reports a chat of the user alone with the bot (a private
	// chat, the terminal): /history there lists the user's games of
	// every chat.
	Private bool
	// Update names the platform update the request is, "" for none: its
	// effect takes place once however often it is delivered or replayed
	// (session.Request.Update).
	Update string
	// Alone reports a chat that is one message, Message (a Telegram
	// inline message): its games are shown in that message, and belong
	// to the first user who plays there.
	Alone bool
	// Think, when set, runs the request's waits for an AI search that
	// takes its think time (session.Request.Think): the front shows that
	// the answer takes a while, and frees its worker.
	Think func(wait func())
}

// Reasons of the refusals the dispatcher reports to the session's
// observer before any game is involved (session.Reason names the others).
const (
	ReasonBadCommand  = "bad_command"
	ReasonBadCallback = "bad_callback"
	ReasonBadCoord    = "bad_coord"
	// ReasonNotAdmin is a chat setting refused to a user who is not an
	// administrator of the chat.
	ReasonNotAdmin = "not_admin"
)

// Dispatcher decides what commands, taps and typed moves come to: each
// request is one session.Turn (one transaction of the store) and one
// Decision, which the front carries out with Carry. It is safe for
// concurrent use.
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

// actor returns the session actor of a request, with the user's name
// cleaned of what must never be shown (render.CleanName) before the
// session stores it.
func (d *Dispatcher) actor(req Request) session.Actor {
	u := req.User
	u.Name = render.CleanName(u.Name)
	return session.Actor{Platform: d.platform, Chat: req.Chat, User: u}
}

// decide runs decide on a new turn of req (about game, when known up
// front) and returns its decision once what the turn showed is written.
func (d *Dispatcher) decide(ctx context.Context, req Request, game session.GameID, decide func(b *builder) Decision) Decision {
	t := d.svc.Begin(ctx, session.Request{Actor: d.actor(req), Update: req.Update, Game: game, Think: req.Think})
	b := &builder{d: d, t: t, ctx: ctx, req: req, lang: d.langOf(t, req)}
	dec := decide(b)
	if err := t.Done(); err != nil {
		d.log.Warn("recording the games on screen", "platform", d.platform, "err", err)
	}
	dec.Marked = t.Marked()
	return dec
}

// langOf returns the language to answer req in: the user's override,
// else the chat's language, else the client's locale.
func (d *Dispatcher) langOf(t *session.Turn, req Request) render.Lang {
	if l, err := t.Lang(); err == nil && l != "" {
		return render.LangOf(l)
	} else if err != nil {
		d.log.Warn("reading language settings", "platform", d.platform, "err", err)
	}
	return render.LangOf(req.Locale)
}

// Lang returns the language to answer a request in, as the decisions
// are: the user's /lang setting, else the chat's language, else the
// client's locale. Fronts write their own texts in it.
func (d *Dispatcher) Lang(ctx context.Context, req Request) render.Lang {
	return d.langOf(d.svc.Begin(ctx, session.Request{Actor: d.actor(req)}), req)
}

// Bind binds the games a front posted new messages for (the bindings
// Carry returns) to those messages, for a front whose requests are no
// platform updates; others bind them when they mark the update handled
// (session.Service.Handled).
func (d *Dispatcher) Bind(ctx context.Context, binds []session.Binding) error {
	return d.svc.Bind(ctx, binds...)
}

// builder collects the effects of one request's decision, on the turn
// the request reads and commits through.
type builder struct {
	d    *Dispatcher
	t    *session.Turn
	ctx  context.Context
	req  Request
	lang render.Lang
	dec  Decision
}

// done returns the decision built.
func (b *builder) done() Decision {
	b.dec.Lang = b.lang
	return b.dec
}

// notice adds a notice for the actor alone.
func (b *builder) notice(text string) Decision {
	b.dec.Effects = append(b.dec.Effects, Notice{Text: text})
	return b.done()
}

// say adds a message in the chat, with the buttons of its question.
func (b *builder) say(text string, kb *render.Keyboard) Decision {
	b.dec.Effects = append(b.dec.Effects, Say{Text: text, Buttons: kb})
	return b.done()
}

// show adds the board of v, on the message that shows it (a new one when
// it has none, or when the request's chat is one message, that message),
// and puts v on the actor's screen.
func (b *builder) show(v session.View) Decision { return b.showAt(v, PlaceOf(v), nil, false) }

// showNew adds the board of v as a new message, with a note.
func (b *builder) showNew(v session.View, note string) Decision {
	b.dec.Effects = append(b.dec.Effects, Show{Game: v, Note: note, At: b.newPlace(v)})
	b.t.See(v)
	return b.done()
}

// showAt adds the board of v on message at (a new one when at names no
// message) with the window of a tap, and puts v on the actor's screen.
func (b *builder) showAt(v session.View, at Place, window *engine.Point, follow bool) Decision {
	if at.Message == "" {
		at = b.newPlace(v)
	}
	b.dec.Effects = append(b.dec.Effects, Show{Game: v, At: at, Window: window, Follow: follow})
	b.t.See(v)
	return b.done()
}

// newPlace returns where a new board of v goes: nowhere yet (Carry posts
// it), or, in a chat that is one message, that message, to which the
// game is bound.
func (b *builder) newPlace(v session.View) Place {
	if !b.req.Alone || b.req.Message == "" || v.Chat() != b.req.Chat {
		return Place{}
	}
	if v.Message() != b.req.Message {
		b.t.Bind(v.ID(), b.req.Message)
	}
	return Place{Platform: b.d.platform, Chat: b.req.Chat, Message: b.req.Message}
}

// attach adds a file for the actor.
func (b *builder) attach(f File) Decision {
	b.dec.Effects = append(b.dec.Effects, Attach{File: f})
	return b.done()
}

// refuse turns an error into the decision's answer: a message in the
// chat for typed commands, a notice for taps. A game that expired as the
// action came in (v, with ErrExpired) is shown in its final state. An
// update handled already (session.ErrDuplicate) gets no message: the game
// it changed, if any, is shown again as it is now, in its own message or,
// when it has none yet (the first handling stopped before showing it), a
// new one. Errors that are not refusals are logged.
func (b *builder) refuse(v session.View, err error, typed bool) Decision {
	if errors.Is(err, session.ErrDuplicate) {
		if v.ID() == "" {
			return b.done()
		}
		return b.show(v)
	}
	msg := render.ErrorText(b.lang, err)
	if msg == render.T(b.lang, render.MsgInternal) {
		b.d.log.Error("action failed", "platform", b.d.platform, "err", err)
	}
	if errors.Is(err, session.ErrExpired) && v.ID() != "" {
		b.show(v)
	}
	if typed {
		return b.say(msg, nil)
	}
	return b.notice(msg)
}

// refused counts a refusal made before any game was involved.
func (b *builder) refused(reason string) { b.d.svc.Refused(b.d.platform, reason) }

// Expired returns the decision that updates the message of a game the
// session's sweeper ended (session.Config.OnExpire), in its players'
// language: the language every person in the game has set with /lang (or
// that their chat has), else the chat's language, else English. Carry it
// with no request front: it only edits.
func (d *Dispatcher) Expired(ctx context.Context, v session.View) Decision {
	t := d.svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: v.Platform(), Chat: v.Chat()}})
	return Decision{Lang: d.playersLang(t, v), Effects: []Effect{Show{Game: v, At: PlaceOf(v)}}}
}

// playersLang returns the language to show a game in when no request
// says: the one its people agree on, else the chat's, else English.
func (d *Dispatcher) playersLang(t *session.Turn, v session.View) render.Lang {
	var langs []string
	for _, side := range []engine.Stone{engine.Black, engine.White} {
		s := v.Seat(side)
		if s.IsAI() || s.User.ID == "" {
			continue
		}
		l, err := t.LangOf(s.User.ID)
		if err != nil {
			d.log.Warn("reading language settings", "platform", d.platform, "err", err)
		}
		langs = append(langs, l)
	}
	if len(langs) > 0 && langs[0] != "" && (len(langs) == 1 || langs[1] == langs[0]) {
		return render.LangOf(langs[0])
	}
	if cs, err := t.ChatSettings(); err == nil && cs.Lang != "" {
		return render.LangOf(cs.Lang)
	}
	return render.English
}

// Decision is what a request comes to, as the Dispatcher decided it once
// its change committed: the effects a front carries out with Carry, in
// one fixed order whatever order they were decided in. The zero Decision
// has nothing to do.
type Decision struct {
	// Lang is the language of every text of the decision and of the
	// boards it shows.
	Lang render.Lang
	// Effects are the effects: Notice, Say, Show and Attach values.
	Effects []Effect
	// Marked says that the decision's change recorded the request's
	// update (Request.Update) handled, as session.Finished.Marked takes
	// it.
	Marked bool
}

// Empty reports whether the decision has nothing to do: text that was no
// command, nor a move.
func (d Decision) Empty() bool { return len(d.Effects) == 0 }

// Effect is one thing a decision has a front do: a Notice, Say, Show or
// Attach.
type Effect interface{ effect() }

// Notice is a short text for the actor alone, such as a refusal: a
// Telegram toast, a Discord ephemeral reply, a line in the terminal.
type Notice struct{ Text string }

// Say is a message in the request's chat: the answer to a typed command,
// with the buttons of its question, if any, under it.
type Say struct {
	Text    string
	Buttons *render.Keyboard
}

// Show shows a game: it edits message At, or, when At names no message
// (or that message is gone), posts a new board in the game's chat, which
// becomes the game's message.
type Show struct {
	Game session.View
	// At is the message to edit; its Platform is the game's own when
	// empty, and may be another front's than the request's.
	At Place
	// Window is the top-left cell of the part of a board larger than the
	// keyboard that its buttons show; nil shows the part around the last
	// move. With Follow it is where the window was when a move was made,
	// and stays there only while it holds the last move.
	Window *engine.Point
	Follow bool
	// Note is a line that comes with a new board, such as why a running
	// game is shown again; edits leave it out.
	Note string
}

// Attach sends the actor what they asked for: a picture (the progress
// chart), an animation (a replay) or a record in text (an export).
type Attach struct{ File File }

func (Notice) effect() {}
func (Say) effect()    {}
func (Show) effect()   {}
func (Attach) effect() {}

// Place names a message of a front: its platform, its chat and its id.
type Place struct {
	Platform session.Platform
	Chat     string
	Message  string
}

// PlaceOf returns the place of the message that shows v ("" Message when
// it has none yet).
func PlaceOf(v session.View) Place {
	return Place{Platform: v.Platform(), Chat: v.Chat(), Message: v.Message()}
}

// Message is what one message of a front shows: text with the answers to
// its question under it, or a game's board (rendered by the front in its
// own layout) with Text as a line above it.
type Message struct {
	Lang    render.Lang
	Text    string
	Buttons *render.Keyboard
	// Game is the game whose board the message shows; nil for text.
	Game   *session.View
	Window *engine.Point
	Follow bool
}

// WindowIn returns the top-left cell of the board window to show with
// layout (nil: around the last move): Window, or, when Follow is set,
// Window while it still holds the last move.
func (m Message) WindowIn(layout render.Layout) *engine.Point {
	if m.Window == nil || !m.Follow || m.Game == nil {
		return m.Window
	}
	return render.Follow(*m.Game, layout, *m.Window)
}

// FileKind says how a File is shown.
type FileKind uint8

// The kinds of File.
const (
	// Picture is a PNG with a caption and, optionally, buttons.
	Picture FileKind = iota
	// Animation is a GIF with a caption.
	Animation
	// Record is text alone: the Caption.
	Record
)

// File is something the actor asked to be sent: a picture, an animation
// or a record (see FileKind). Data is the file (none for a record), Name
// its file name.
type File struct {
	Kind    FileKind
	Name    string
	Data    []byte
	Caption string
	Buttons *render.Keyboard
}

// ErrGone is returned, wrapped, by Front.Edit when the message cannot
// show what it is asked to any more (it was deleted, or it is of a kind
// that cannot become a board with a picture): Carry then posts a new
// message instead.
var ErrGone = errors.New("adapters: the message cannot show this")

// Front is how decisions reach one platform: Telegram, Discord (gateway
// or HTTP), the terminal, the web board. A front made for a request knows
// its actor and chat; one made for no request (the sweeper's expiries)
// only edits. Carry is the only caller of its methods for a decision;
// each method reports its failure, and Carry goes on with the next
// effect (a front logs what it cannot do).
type Front interface {
	// Platform returns the front's platform.
	Platform() session.Platform
	// Notify tells the actor text, seen by them alone; an empty text
	// acknowledges the request with nothing to say. Carry calls it once
	// per decision, first, so that an acknowledgement never waits behind
	// messages (Telegram answers the tap's callback).
	Notify(ctx context.Context, text string) error
	// Send posts m as a new message in chat ("": the request's) and
	// returns its id.
	Send(ctx context.Context, chat string, m Message) (string, error)
	// Edit changes message at to show m; an error wrapping ErrGone says
	// that a new message should show it instead.
	Edit(ctx context.Context, at Place, m Message) error
	// Attach sends the actor a file they asked for.
	Attach(ctx context.Context, f File) error
}

// Fronts are the fronts of a process by platform, for the effects aimed
// at another front's message than the request's, and for decisions made
// for no request.
type Fronts map[session.Platform]Front

// Carry carries out decision d: through f, the front of the request
// (nil for a decision made for no request), and through the front of
// elsewhere for a Show aimed at a message of another platform. Effects
// are issued in one order: the notice (or a plain acknowledgement), the
// files (a chart above the numbers it goes with), what is said, the
// boards; effects of one kind in the order the decision lists them. It
// returns the new messages posted for
// games, to be bound to them (session.Service.Bind or Handled).
func Carry(ctx context.Context, f Front, d Decision, elsewhere Fronts) []session.Binding {
	var notices []string
	var says []Say
	var shows []Show
	var files []File
	for _, e := range d.Effects {
		switch e := e.(type) {
		case Notice:
			notices = append(notices, e.Text)
		case Say:
			says = append(says, e)
		case Show:
			shows = append(shows, e)
		case Attach:
			files = append(files, e.File)
		}
	}
	if f != nil {
		f.Notify(ctx, strings.Join(notices, "\n"))
		for _, file := range files {
			f.Attach(ctx, file)
		}
		for _, s := range says {
			f.Send(ctx, "", Message{Lang: d.Lang, Text: s.Text, Buttons: s.Buttons})
		}
	}
	var binds []session.Binding
	for _, s := range shows {
		to, own := f, true
		if p := s.At.Platform; p != "" && (f == nil || p != f.Platform()) {
			to, own = elsewhere[p], false
		}
		if to == nil {
			continue
		}
		m := Message{Lang: d.Lang, Game: &s.Game, Window: s.Window, Follow: s.Follow}
		if s.At.Message != "" {
			err := to.Edit(ctx, s.At, m)
			if err == nil || !errors.Is(err, ErrGone) {
				continue
			}
		}
		if !own {
			// A new message goes only to the request's own chat.
			continue
		}
		m.Text = s.Note
		if id, err := to.Send(ctx, s.Game.Chat(), m); err == nil && id != "" && id != s.Game.Message() {
			binds = append(binds, session.Binding{Game: s.Game.ID(), Message: id})
		}
	}
	return binds
}
