// Package console is a chat in a terminal: a person plays from standard
// input with no account or token. It is a front like the chat platforms:
// each line goes to the Dispatcher, and its Decision comes back through
// adapters.Carry to the Console's Front methods, which print; the printed
// keyboard stands for a message's buttons. "/as NAME" switches the user
// who types, so one person can duel themselves as two users.
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
	window *engine.Point
	// shown is what message shows, for /keys to show it again.
	shown adapters.Message
	// cells says boards larger than the terminal's buttons show their
	// cells as numbered buttons (/keys); by default they take typed
	// cells, and only their controls are numbered.
	cells bool
	// unnamed says the system gave the user no name: they are called
	// "you" in their language (render.MsgYou).
	unnamed bool
	expired chan adapters.Decision
	// remote runs on Run's goroutine what another front (the web board)
	// asks of the terminal's messages.
	remote chan func()
	// replays is the directory the replays are written to.
	replays string
	// link returns the web board's link of a game for a user; nil when
	// no web board is served.
	link func(session.GameID, session.User) string
}

// SetWebLinks makes the terminal print a board's web link, made by link,
// when the board is first shown, at start and on /web.
func (c *Console) SetWebLinks(link func(session.GameID, session.User) string) { c.link = link }

// SetReplayDir sets the directory ▶️ writes a finished game's replay GIF
// to, and /stats the player's chart (their paths are printed); the
// default is the system's temporary directory.
func (c *Console) SetReplayDir(dir string) { c.replays = dir }

// New returns a console where user plays, answering in the language of
// locale. A user without a name is called "you" in their language. A
// user without a handle gets their name as the handle, so that
// "/duel @name" reaches them as it does the users of "/as".
func New(d *adapters.Dispatcher, in io.Reader, out io.Writer, user session.User, locale string) *Console {
	c := &Console{
		d: d, in: in, out: out, owner: user, user: user, lang: locale, unnamed: user.Name == "",
		expired: make(chan adapters.Decision, 64), remote: make(chan func()), replays: os.TempDir(),
	}
	c.name(render.LangOf(locale))
	return c
}

// name completes the owner's name and handle: "you" in language l when
// the system gave no name.
func (c *Console) name(l render.Lang) {
	as := c.user == c.owner
	if c.unnamed {
		c.owner.Name, c.owner.Handle = render.T(l, render.MsgYou), ""
	}
	if c.owner.Handle == "" {
		c.owner.Handle = c.owner.Name
	}
	if as {
		c.user = c.owner
	}
}

// Expired tells the console that the session's sweeper ended a game, so
// that Run shows its final state (adapters.Dispatcher.Expired) between
// two lines of input; pass it as session.Config.OnExpire. It never
// blocks: when the console is far behind, the report is dropped and the
// game shows as ended when next touched.
func (c *Console) Expired(v session.View) {
	if v.Platform() != Platform {
		return
	}
	select {
	case c.expired <- c.d.Expired(context.Background(), v):
	default:
	}
}

// Run plays until the input ends, /quit is typed, or ctx is done. On start
// it shows the user's running game, if any, where it was left.
func (c *Console) Run(ctx context.Context) error {
	lang := c.d.Lang(ctx, c.request())
	c.name(lang)
	fmt.Fprintln(c.out, render.T(lang, render.MsgWelcome))
	c.carry(ctx, c.d.Resume(ctx, c.request()))
	c.webLink(ctx, false)
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
		case d := <-c.expired:
			fmt.Fprintln(c.out)
			c.carry(ctx, d)
			continue
		case f := <-c.remote:
			fmt.Fprintln(c.out)
			f()
			continue
		case in, ok = <-lines:
		}
		if !ok {
			fmt.Fprintln(c.out)
			return <-errs
		}
		if in.tooLong {
			fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgTooLong, strconv.Itoa(adapters.MaxCommandLen)))
			continue
		}
		// Chinese input methods type full-width letters and digits: "１"
		// is button 1, "／ｑｕｉｔ" /quit.
		line := strings.TrimSpace(adapters.FoldWidth(in.text))
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
	switch {
	case line == "/as" || strings.HasPrefix(line, "/as "):
		c.switchUser(ctx, strings.Fields(line)[1:])
		return
	case line == "/web":
		c.webLink(ctx, true)
		return
	case line == "/keys":
		c.keys(ctx)
		return
	case strings.HasPrefix(line, "/"):
		d := c.d.Text(ctx, c.request(), line)
		if cmd, err := adapters.ParseCommand(line, ""); err == nil {
			switch cmd.Name {
			case adapters.CmdHelp:
				// The terminal's own commands, after the shared ones.
				defer fmt.Fprintln(c.out, render.T(d.Lang, render.MsgHelpTerminal))
			case adapters.CmdLang:
				// "you" follows the language set.
				defer c.name(d.Lang)
			}
		}
		c.carry(ctx, d)
		return
	}
	if isNumber(line) {
		n, err := strconv.Atoi(line)
		switch {
		case len(c.buttons) == 0:
			fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgNoButtons))
		case err != nil || n < 1 || n > len(c.buttons):
			fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgNoButton, shorten(line), len(c.buttons)))
		case !c.buttons[n-1].Live() && c.buttons[n-1].Action.Game == "":
			// A control with nothing to do, such as an arrow at the
			// board's edge: a cell's tells why itself.
			fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgButtonIdle, n))
		default:
			// The number picks a button of the keyboard shown last.
			req := c.request()
			req.HasButton = true
			c.carry(ctx, c.d.Tap(ctx, req, adapters.EncodeAction(c.buttons[n-1].Action)))
		}
		return
	}
	d := c.d.Text(ctx, c.request(), line)
	if d.Empty() {
		fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgHelp))
		return
	}
	c.carry(ctx, d)
}

// carry prints decision d (adapters.Carry through the Console's Front
// methods) and binds the games it showed anew to their messages.
func (c *Console) carry(ctx context.Context, d adapters.Decision) {
	binds := adapters.Carry(ctx, c, d, nil)
	if err := c.d.Bind(ctx, binds); err != nil {
		fmt.Fprintln(c.out, render.ErrorText(d.Lang, err))
		return
	}
	// A new board's link, once the board is its game's message: a move
	// from the web board is a tap on it.
	if len(binds) > 0 {
		c.webLink(ctx, false)
	}
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
	case len(args) == 1 && reserved(args[0]):
		fmt.Fprintln(c.out, render.T(lang, render.MsgAsReserved, render.CleanName(args[0])))
		return
	case len(args) == 1 && len(args[0]) <= 32 && !strings.ContainsAny(args[0], "@/") && render.CleanName(args[0]) == args[0]:
		c.user = session.User{ID: "as:" + strings.ToLower(args[0]), Name: args[0], Handle: args[0]}
	default:
		fmt.Fprintln(c.out, render.T(lang, render.MsgBadAs, render.CleanName(strings.Join(args, " "))))
		return
	}
	fmt.Fprintln(c.out, render.T(lang, render.MsgNowPlaying, render.SeatName(session.Seat{User: c.user}, lang)))
}

// Platform returns the console's platform.
func (c *Console) Platform() session.Platform { return Platform }

// Notify prints a notice for the user, as a line of its own like every
// other answer.
func (c *Console) Notify(_ context.Context, text string) error {
	if text != "" {
		fmt.Fprintln(c.out, text)
	}
	return nil
}

// Send prints a new message: text with the answers of its question as
// numbered buttons, or a game's board, which is message "msg-<game>".
func (c *Console) Send(ctx context.Context, _ string, m adapters.Message) (string, error) {
	if m.Game == nil {
		if m.Text != "" {
			fmt.Fprintln(c.out, m.Text)
		}
		if m.Buttons != nil {
			// A question's answers stand for a message of their own.
			var keys string
			keys, c.buttons = render.KeyboardText(*m.Buttons)
			c.message = questionMessage
			fmt.Fprint(c.out, keys)
		}
		return questionMessage, nil
	}
	if m.Text != "" {
		fmt.Fprintln(c.out, m.Text)
	}
	id := messagePrefix + string(m.Game.ID())
	c.board(id, m)
	return id, nil
}

// webLink prints the web link of the board on screen; asked says /web
// asked for it, so that its absence is told too.
func (c *Console) webLink(ctx context.Context, asked bool) {
	game, shown := strings.CutPrefix(c.message, messagePrefix)
	switch {
	case c.link == nil:
		if asked {
			fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgWebOff))
		}
	case !shown:
		if asked {
			fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgWebNoGame))
		}
	default:
		fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), render.MsgWebLink, c.link(session.GameID(game), c.user)))
	}
}

// Remote returns the front through which another front (the web board)
// shows boards in the terminal: what it asks runs on Run's goroutine,
// between two lines typed.
func (c *Console) Remote() adapters.Front { return remote{c} }

// remote is the Console's front for other goroutines.
type remote struct{ c *Console }

func (r remote) Platform() session.Platform { return Platform }

// do runs f on Run's goroutine and returns its error, or ctx's.
func (r remote) do(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	select {
	case r.c.remote <- func() { done <- f() }:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r remote) Notify(ctx context.Context, text string) error {
	return r.do(ctx, func() error { return r.c.Notify(ctx, text) })
}

func (r remote) Send(ctx context.Context, chat string, m adapters.Message) (string, error) {
	var id string
	err := r.do(ctx, func() error {
		var err error
		id, err = r.c.Send(ctx, chat, m)
		return err
	})
	return id, err
}

func (r remote) Edit(ctx context.Context, at adapters.Place, m adapters.Message) error {
	return r.do(ctx, func() error { return r.c.Edit(ctx, at, m) })
}

func (r remote) Attach(ctx context.Context, f adapters.File) error {
	return r.do(ctx, func() error { return r.c.Attach(ctx, f) })
}

// Edit prints the board of message at again. A typed move in the game on
// screen keeps its board window where it is, as a tapped cell's does.
func (c *Console) Edit(_ context.Context, at adapters.Place, m adapters.Message) error {
	if m.Game == nil {
		return fmt.Errorf("console: edit message %s: %w", at.Message, adapters.ErrGone)
	}
	if m.Window == nil && at.Message == c.message && c.window != nil {
		m.Window, m.Follow = c.window, true
	}
	c.board(at.Message, m)
	return nil
}

// board prints the board of m as message id with its numbered keyboard,
// which the next number typed taps. A board larger than the terminal's
// buttons is shown whole with its controls only, and takes typed cells,
// unless /keys asked for its cells numbered.
func (c *Console) board(id string, m adapters.Message) {
	c.message, c.shown = id, m
	b := render.Compose(*m.Game, m.Lang, render.ConsoleLayout, m.WindowIn(render.ConsoleLayout))
	kb, text := b.Keyboard, b.Text
	compact := kb.Partial && !c.cells
	if compact {
		text = render.Text(*m.Game, m.Lang) // without the window's line
		kb = controls(kb)
	}
	fmt.Fprintln(c.out)
	fmt.Fprintln(c.out, text)
	var keys string
	keys, c.buttons = render.KeyboardText(kb)
	fmt.Fprint(c.out, keys)
	if compact && m.Game.Status() == session.Running {
		r := m.Game.Rules()
		center := engine.Point{X: r.Width / 2, Y: r.Height / 2}
		hint := render.T(m.Lang, render.MsgTypeCell, render.FormatCoord(center, r))
		if c.link != nil {
			hint += " " + render.T(m.Lang, render.MsgTypeCellWeb)
		}
		fmt.Fprintln(c.out, hint)
	}
	c.window = nil
	if kb.Partial {
		c.window = &kb.Window.Origin
	}
}

// controls returns the rows of kb below its board window, without the
// arrows that move the window: a board's controls.
func controls(kb render.Keyboard) render.Keyboard {
	var out render.Keyboard
	for _, row := range kb.Rows[kb.Window.Height:] {
		var keep []render.Button
		for _, b := range row {
			if b.Action.Kind != render.Scroll && !(b.Action.Kind == render.Noop && b.Action.Game == "") {
				keep = append(keep, b)
			}
		}
		if len(keep) > 0 {
			out.Rows = append(out.Rows, keep)
		}
	}
	return out
}

// keys answers /keys: boards larger than the terminal's buttons show
// their cells numbered, or stop; the board on screen is shown again.
func (c *Console) keys(ctx context.Context) {
	c.cells = !c.cells
	key := render.MsgKeysOff
	if c.cells {
		key = render.MsgKeysOn
	}
	fmt.Fprintln(c.out, render.T(c.d.Lang(ctx, c.request()), key))
	if c.shown.Game != nil && strings.HasPrefix(c.message, messagePrefix) {
		c.board(c.message, c.shown)
	}
}

// Attach writes a picture (the user's chart, chart-<user>.png) or an
// animation (a replay) to the replay directory under the file's name and
// prints its path and caption, or prints a record.
func (c *Console) Attach(_ context.Context, f adapters.File) error {
	if f.Kind == adapters.Record {
		fmt.Fprintln(c.out, f.Caption)
		return nil
	}
	mark := "▶️"
	if f.Kind == adapters.Picture {
		mark = "📈"
	}
	path := filepath.Join(c.replays, f.Name)
	if err := os.WriteFile(path, f.Data, 0o644); err != nil {
		fmt.Fprintln(c.out, err)
		return err
	}
	fmt.Fprintln(c.out, mark, path)
	fmt.Fprintln(c.out, f.Caption)
	return nil
}
