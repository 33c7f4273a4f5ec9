// Package console is a chat in a terminal: a person plays from standard
// input with no account or token. It goes through the same Dispatcher as
// the chat platforms; the printed keyboard stands for a message's buttons.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Platform is the session platform of console games.
const Platform session.Platform = "console"

// chatID and messageID name the one chat and the one board "message" a
// terminal has.
const (
	chatID    = "terminal"
	messageID = "board"
)

// Console reads commands, button numbers and coordinates from a reader
// and writes boards and replies to a writer. It is for one goroutine.
type Console struct {
	d    *adapters.Dispatcher
	in   io.Reader
	out  io.Writer
	user session.User
	lang string
	// buttons are the live buttons of the last board shown, numbered from
	// 1 in the order printed: the terminal's copy of a message's keyboard.
	// The board is laid out for render.ConsoleLayout, the Telegram
	// keyboard, so large boards show a window with arrows, as on a phone.
	buttons []render.Button
}

// New returns a console where user plays, answering in the language of
// locale.
func New(d *adapters.Dispatcher, in io.Reader, out io.Writer, user session.User, locale string) *Console {
	return &Console{d: d, in: in, out: out, user: user, lang: locale}
}

// Run plays until the input ends, /quit is typed, or ctx is done. On start
// it shows the user's running game, if any, where it was left.
func (c *Console) Run(ctx context.Context) error {
	lang := render.LangOf(c.lang)
	fmt.Fprintln(c.out, render.T(lang, render.MsgWelcome))
	if r := c.d.Resume(ctx, c.request()); r.Game != nil {
		c.show(ctx, r)
	}
	lines := make(chan string)
	errs := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(c.in)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		errs <- sc.Err()
		close(lines)
	}()
	for {
		fmt.Fprint(c.out, "> ")
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.out)
			return nil
		case line, ok = <-lines:
		}
		if !ok {
			fmt.Fprintln(c.out)
			return <-errs
		}
		line = strings.TrimSpace(line)
		if line == "/quit" || line == "/exit" {
			return nil
		}
		c.handle(ctx, line)
	}
}

// request returns the dispatcher request of the terminal's user.
func (c *Console) request() adapters.Request {
	return adapters.Request{Chat: chatID, User: c.user, Locale: c.lang, Message: messageID}
}

// handle acts on one line of input.
func (c *Console) handle(ctx context.Context, line string) {
	lang := render.LangOf(c.lang)
	switch {
	case line == "":
		return
	case strings.HasPrefix(line, "/"):
		c.show(ctx, c.d.Command(ctx, c.request(), line))
		return
	}
	if n, err := strconv.Atoi(line); err == nil {
		if n < 1 || n > len(c.buttons) {
			fmt.Fprintln(c.out, "!", render.T(lang, render.MsgBadCallback))
			return
		}
		c.show(ctx, c.d.Tap(ctx, c.request(), adapters.EncodeAction(c.buttons[n-1].Action)))
		return
	}
	r := c.d.Move(ctx, c.request(), line)
	if r == (adapters.Reply{}) {
		r = adapters.Reply{Lang: lang, Text: render.T(lang, render.MsgHelp)}
	}
	c.show(ctx, r)
}

// show prints a reply: its text, its notice, and its game with the
// numbered keyboard.
func (c *Console) show(ctx context.Context, r adapters.Reply) {
	if r.Text != "" {
		fmt.Fprintln(c.out, r.Text)
	}
	if r.Notice != "" {
		fmt.Fprintln(c.out, "!", r.Notice)
	}
	if r.Game == nil {
		return
	}
	if r.Edit == "" {
		if err := c.d.Bind(ctx, r.Game.ID(), messageID); err != nil {
			fmt.Fprintln(c.out, "!", render.ErrorText(r.Lang, err))
		}
	}
	fmt.Fprintln(c.out)
	fmt.Fprintln(c.out, render.Text(*r.Game, r.Lang))
	kb := render.BoardKeyboard(*r.Game, r.Lang, render.ConsoleLayout, r.Window)
	var text string
	text, c.buttons = render.KeyboardText(kb)
	fmt.Fprint(c.out, text)
}
