package adapters

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// reply is a decision as the tests read it: what was said and noticed,
// the one board shown (and the message it edits, "" for a new one), and
// the files.
type reply struct {
	Lang    render.Lang
	Text    string
	Notice  string
	Buttons *render.Keyboard
	Game    *session.View
	Edit    string
	Window  *engine.Point
	Follow  bool
	Record  string
	Replay  *replayFile
	Chart   *File
}

// replayFile is a replay sent: its file.
type replayFile struct{ File }

// ID returns the id of the game replayed, from the file's name.
func (r *replayFile) ID() session.GameID {
	return session.GameID(strings.TrimSuffix(strings.TrimPrefix(r.Name, "replay-"), ".gif"))
}

// read returns the reply of decision d; a note that comes with a new
// board is read as text.
func read(d Decision) reply {
	r := reply{Lang: d.Lang}
	var texts, notices []string
	for _, e := range d.Effects {
		switch e := e.(type) {
		case Notice:
			notices = append(notices, e.Text)
		case Say:
			texts = append(texts, e.Text)
			if e.Buttons != nil {
				r.Buttons = e.Buttons
			}
		case Show:
			v := e.Game
			r.Game, r.Edit, r.Window, r.Follow = &v, e.At.Message, e.Window, e.Follow
			if e.Note != "" {
				texts = append(texts, e.Note)
			}
		case Attach:
			switch e.File.Kind {
			case Record:
				r.Record = e.File.Caption
			case Animation:
				r.Replay = &replayFile{e.File}
			case Picture:
				f := e.File
				r.Chart = &f
			}
		}
	}
	r.Text, r.Notice = strings.Join(texts, "\n"), strings.Join(notices, "\n")
	return r
}

// empty reports whether the reply shows nothing.
func (r reply) empty() bool {
	return r.Text == "" && r.Notice == "" && r.Game == nil && r.Record == "" && r.Replay == nil && r.Chart == nil
}

// WindowIn is Message.WindowIn for the reply's board.
func (r reply) WindowIn(layout render.Layout) *engine.Point {
	return Message{Game: r.Game, Window: r.Window, Follow: r.Follow}.WindowIn(layout)
}

// bind binds game id to message, as a front does after posting it.
func bind(d *Dispatcher, id session.GameID, message string) error {
	return d.Bind(context.Background(), []session.Binding{{Game: id, Message: message}})
}

// call is one call a recorder received.
type call struct {
	method string
	text   string
	at     Place
	game   session.GameID
}

func (c call) String() string { return fmt.Sprintf("%s(%q %v %s)", c.method, c.text, c.at, c.game) }

// recorder is a Front that records the calls it receives, in order, and
// posts new messages with ids "new1", "new2", ...; a message in gone
// cannot be edited (ErrGone).
type recorder struct {
	platform session.Platform
	calls    []call
	gone     map[string]bool
}

func (f *recorder) Platform() session.Platform { return f.platform }

func (f *recorder) Notify(_ context.Context, text string) error {
	f.calls = append(f.calls, call{method: "notify", text: text})
	return nil
}

func (f *recorder) Send(_ context.Context, chat string, m Message) (string, error) {
	c := call{method: "send", text: m.Text, at: Place{Chat: chat}}
	if m.Game != nil {
		c.game = m.Game.ID()
	}
	f.calls = append(f.calls, c)
	return fmt.Sprintf("new%d", len(f.calls)), nil
}

func (f *recorder) Edit(_ context.Context, at Place, m Message) error {
	f.calls = append(f.calls, call{method: "edit", at: at, game: m.Game.ID()})
	if f.gone[at.Message] {
		return fmt.Errorf("recorder: %w", ErrGone)
	}
	return nil
}

func (f *recorder) Attach(_ context.Context, file File) error {
	f.calls = append(f.calls, call{method: "attach", text: file.Caption})
	return nil
}
