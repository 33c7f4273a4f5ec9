package adapters

import (
	"context"
	"errors"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

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
