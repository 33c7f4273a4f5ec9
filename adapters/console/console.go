// Package console is a chat in a terminal: a person plays from standard
// input with no account or token. It goes through the same Dispatcher as
// the chat platforms; the printed keyboard stands for a message's buttons.
// "/as NAME" switches the user who types, so one person can duel
// themselves as two users.
package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Platform is the session platform of console games.
const Platform session.Platform = "console"

// chatID names the one chat a terminal has.
const chatID = "terminal"

// messagePrefix starts the id of the terminal "message" that shows a game:
// each game is its own message, named after the game.
const messagePrefix = "msg-"

// questionMessage is the id of the terminal "message" of a question, such
// as which game a typed move is for, whose answers are buttons.
const questionMessage = "question"

// Console reads commands, button numbers and coordinates from a reader
// and writes boards and replies to a writer. Run is for one goroutine;
// Expired may be called from any.
type Console struct {
	d     *adapters.Dispatcher
	in    io.Reader
	out   io.Writer
	owner session.User
	user  session.User
	lang  string
	// message is the id of the message whose keyboard is in buttons.
	message string
	// buttons are the buttons of the last message shown, numbered from 1
	// in the order printed: the terminal's copy of its keyboard.
	buttons []render.Button
	// window is the top-left cell of the board window of message, when
	// its buttons show part of the board: a typed move keeps it.
	window  *engine.Point
	expired chan session.View
	// replays is the directory the replays are written to.
	replays string
}

// SetReplayDir sets the directory ▶️ writes a finished game's replay GIF
// to, and /stats the player's chart (their paths are printed); the
// default is the system's temporary directory.
func (c *Console) SetReplayDir(dir string) { c.replays = dir }

// New returns a console where user plays, answering in the language of
// locale. A user without a handle gets their name as the handle, so that
// "/duel @name" reaches them as it does the users of "/as".
func New(d *adapters.Dispatcher, in io.Reader, out io.Writer, user session.User, locale string) *Console {
	if user.Handle == "" {
		user.Handle = user.Name
	}
	return &Console{d: d, in: in, out: out, owner: user, user: user, lang: locale, expired: make(chan session.View, 64), replays: os.TempDir()}
}

// Expired tells the console that the session's sweeper ended a game, so
// that Run shows its final state; pass it as session.Config.OnExpire. It
// never blocks: when the console is far behind, the report is dropped and
// the game shows as ended when next touched.
func (c *Console) Expired(v session.View) {
	select {
	case c.expired <- v:
	default:
	}
}

// Run plays until the input ends, /quit is typed, or ctx is done. On start
// it shows the user's running game, if any, where it was left.
func (c *Console) Run(ctx context.Context) error {
	fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgWelcome))
	if r := c.d.Resume(ctx, c.request()); r.Game != nil {
		c.show(ctx, r)
	}
	lines := make(chan input)
	errs := make(chan error, 1)
	go func() {
		lr := newLineReader(c.in)
		for {
			text, tooLong, err := lr.next()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				errs <- err
				close(lines)
				return
			}
			select {
			case lines <- input{text: text, tooLong: tooLong}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		fmt.Fprint(c.out, "> ")
		var in input
		var ok bool
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.out)
			return nil
		case v := <-c.expired:
			fmt.Fprintln(c.out)
			c.show(ctx, c.d.Expired(ctx, v))
			continue
		case in, ok = <-lines:
		}
		if !ok {
			fmt.Fprintln(c.out)
			return <-errs
		}
		if in.tooLong {
			fmt.Fprintln(c.out, "!", render.T(c.d.Lang(ctx, c.request()), render.MsgTooLong, strconv.Itoa(adapters.MaxCommandLen)))
			continue
		}
		line := strings.TrimSpace(in.text)
		if line == "/quit" || line == "/exit" {
			return nil
		}
		c.handle(ctx, line)
	}
}

// input is one line typed, or the start of a line too long to take.
type input struct {
	text    string
	tooLong bool
}

// request returns the dispatcher request of the terminal's user.
func (c *Console) request() adapters.Request {
	return adapters.Request{Chat: chatID, User: c.user, Locale: c.lang, Message: c.message, Admin: anyone, Private: true}
}

// anyone is the Request.Admin of the terminal: a private chat, whose
// settings its user may change.
func anyone(context.Context) (bool, error) { return true, nil }

// handle acts on one line of input.
func (c *Console) handle(ctx context.Context, line string) {
	if line == "" {
		return
	}
	lang := c.d.Lang(ctx, c.request())
	switch {
	case line == "/as" || strings.HasPrefix(line, "/as "):
		c.switchUser(ctx, strings.Fields(line)[1:])
		return
	case strings.HasPrefix(line, "/"):
		r := c.d.Command(ctx, c.request(), line)
		if cmd, err := adapters.ParseCommand(line, ""); err == nil && cmd.Name == adapters.CmdHelp {
			r.Text += "\n" + render.T(r.Lang, render.MsgHelpTerminal)
		}
		c.show(ctx, r)
		return
	}
	if isNumber(line) {
		n, err := strconv.Atoi(line)
		switch {
		case len(c.buttons) == 0:
			fmt.Fprintln(c.out, "!", render.T(lang, render.MsgNoButtons))
		case err != nil || n < 1 || n > len(c.buttons):
			fmt.Fprintln(c.out, "!", render.T(lang, render.MsgNoButton, shorten(line), len(c.buttons)))
		default:
			// The number picks a button of the keyboard shown last.
			req := c.request()
			req.HasButton = true
			c.show(ctx, c.d.Tap(ctx, req, adapters.EncodeAction(c.buttons[n-1].Action)))
		}
		return
	}
	r := c.d.Move(ctx, c.request(), line)
	if r == (adapters.Reply{}) {
		r = adapters.Reply{Lang: lang, Text: render.T(lang, render.MsgHelp)}
	}
	c.show(ctx, r)
}

// isNumber reports whether s is a decimal integer, signed or not, of any
// length: what a person types for a button.
func isNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// maxEcho is how many bytes of a refused number the terminal repeats.
const maxEcho = 12

// shorten returns s, cut to maxEcho bytes with an ellipsis when longer.
func shorten(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	return s[:maxEcho] + "…"
}

// switchUser makes NAME the user who types: "/as bob" plays as bob, and
// "/as" alone (or the terminal user's own name) switches back. It
// answers in the language of the user who typed it.
func (c *Console) switchUser(ctx context.Context, args []string) {
	lang := c.d.Lang(ctx, c.request())
	switch {
	case len(args) == 0 || args[0] == c.owner.Name:
		c.user = c.owner
	case len(args) == 1 && len(args[0]) <= 32 && !strings.ContainsAny(args[0], "@/") && render.CleanName(args[0]) == args[0]:
		c.user = session.User{ID: "as:" + strings.ToLower(args[0]), Name: args[0], Handle: args[0]}
	default:
		fmt.Fprintln(c.out, render.T(lang, render.MsgBadAs, render.CleanName(strings.Join(args, " "))))
		return
	}
	fmt.Fprintln(c.out, render.T(lang, render.MsgNowPlaying, render.SeatName(session.Seat{User: c.user}, lang)))
}

// writeReplay writes the replay GIF of v to the replay directory and
// prints its path and caption.
func (c *Console) writeReplay(v session.View, l render.Lang) {
	gif, err := render.Replay(v)
	if err == nil {
		path := filepath.Join(c.replays, "replay-"+string(v.ID())+".gif")
		if err = os.WriteFile(path, gif, 0o644); err == nil {
			fmt.Fprintln(c.out, "▶️", path)
			fmt.Fprintln(c.out, render.ReplayCaption(v, l))
			return
		}
	}
	fmt.Fprintln(c.out, "!", render.ErrorText(l, err))
}

// show prints a reply: its text, its notice, and its game or challenge
// with the numbered keyboard.
func (c *Console) show(ctx context.Context, r adapters.Reply) {
	if r.Text != "" {
		fmt.Fprintln(c.out, r.Text)
	}
	if r.Notice != "" {
		fmt.Fprintln(c.out, "!", r.Notice)
	}
	if r.Record != "" {
		fmt.Fprintln(c.out, r.Record)
	}
	if r.Replay != nil {
		c.writeReplay(*r.Replay, r.Lang)
	}
	if r.Chart != nil {
		path := filepath.Join(c.replays, "chart-"+c.user.ID+".png")
		if err := os.WriteFile(path, r.Chart.PNG, 0o644); err != nil {
			fmt.Fprintln(c.out, "!", render.ErrorText(r.Lang, err))
		} else {
			fmt.Fprintln(c.out, "📈", path)
			fmt.Fprintln(c.out, r.Chart.Caption)
		}
	}
	if r.Buttons != nil {
		// A question's answers stand for a message of their own.
		var keys string
		keys, c.buttons = render.KeyboardText(*r.Buttons)
		c.message = questionMessage
		fmt.Fprint(c.out, keys)
	}
	if r.Game == nil {
		return
	}
	if r.Window == nil && r.Edit != "" && r.Edit == c.message && c.window != nil {
		// A typed move in the game on screen: its window stays where it
		// is, as a tapped cell's does.
		r.Window, r.Follow = c.window, true
	}
	c.message = r.Edit
	if r.Edit == "" {
		c.message = messagePrefix + string(r.Game.ID())
		if err := c.d.Bind(ctx, r.Game.ID(), c.message); err != nil {
			fmt.Fprintln(c.out, "!", render.ErrorText(r.Lang, err))
		}
	}
	b := render.Compose(*r.Game, r.Lang, render.ConsoleLayout, r.WindowIn(render.ConsoleLayout))
	fmt.Fprintln(c.out)
	fmt.Fprintln(c.out, b.Text)
	var keys string
	keys, c.buttons = render.KeyboardText(b.Keyboard)
	fmt.Fprint(c.out, keys)
	c.window = nil
	if b.Keyboard.Partial {
		c.window = &b.Keyboard.Window.Origin
	}
}
