package adapters

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

func TestActionRoundTrip(t *testing.T) {
	for _, a := range []render.Action{
		{Kind: render.Noop},
		{Kind: render.Noop, Game: session.GameID(strings.Repeat("z", 16)), Cell: engine.Point{X: 18, Y: 18}},
		{Kind: render.Resign, Game: "zz9"},
		{Kind: render.Rematch, Game: "a"},
		{Kind: render.Accept, Game: "b"},
		{Kind: render.Decline, Game: "c"},
		{Kind: render.Cancel, Game: "d"},
		{Kind: render.Show, Game: "f9"},
		// Answers of which game that do something there.
		{Kind: render.Show, Game: "f9", Then: render.Resign},
		{Kind: render.Show, Game: "h", MoveNo: 7, Then: render.Undo},
		{Kind: render.Show, Game: "i", MoveNo: 0, Then: render.Hint},
		{Kind: render.Show, Game: session.GameID(strings.Repeat("z", 16)), MoveNo: 360, Cell: engine.Point{X: 18, Y: 18}, Then: render.Place},
		{Kind: render.Scroll, Game: "e", Window: engine.Point{X: 11, Y: 0}},
		{Kind: render.Place, Game: "1", MoveNo: 0, Cell: engine.Point{}},
		{Kind: render.Place, Game: session.GameID(strings.Repeat("z", 16)), MoveNo: 360, Cell: engine.Point{X: 18, Y: 18}},
		{Kind: render.Undo, Game: "f", MoveNo: 0},
		{Kind: render.UndoAccept, Game: session.GameID(strings.Repeat("z", 16)), MoveNo: 361},
		{Kind: render.UndoDecline, Game: "g", MoveNo: 12},
		{Kind: render.Place, Game: "g", MoveNo: 3, Cell: engine.Point{X: 4, Y: 5}, Window: engine.Point{X: 0, Y: 2}},
		// The longest data of all: Telegram takes up to 64 bytes.
		{Kind: render.Place, Game: session.GameID(strings.Repeat("z", 16)), MoveNo: 360, Cell: engine.Point{X: 18, Y: 18}, Window: engine.Point{X: 18, Y: 18}},
	} {
		data := EncodeAction(a)
		if len(data) > MaxCallbackLen {
			t.Errorf("%+v encodes to %d bytes", a, len(data))
		}
		got, err := DecodeAction(data)
		if err != nil || got != a {
			t.Errorf("round trip %+v → %q → %+v, %v", a, data, got, err)
		}
	}
}

func TestDecodeRefusesForgedData(t *testing.T) {
	for _, data := range []string{
		"", "x", "p", "p:1:2:3", "p:1:2:3:4:5", "p::0:0:0", "p:A:0:0:0", "p:1:-1:0:0", "p:1:01:0:0",
		"p:1:0:19:0", "p:1:0:0:99", "p:1:+1:0:0", "p:1:0:0:0 ", "r:", "r:1:2", "n:1",
		"p:" + strings.Repeat("a", 17) + ":0:0:0", "s:1:0", "s:1:0:19", "s:1:0:0:0", "a:1:0", "R", "x:1", "n:1:0", "n:1:19:0", "n::0:0", "n:1:0:0:0",
		"p:1:0:0:0:0:0", "p:1:0:0:0:1", "p:1:0:0:0:19:0", "p:1:0:0:0:0:01", "p:1:0:0:0:1:0:0", strings.Repeat("p:1:0:0:0", 10), "p:1:99999:0:0", "p:ü:0:0:0",
		"u:1", "u:1:", "u:1:01", "u:1:362", "u:1:2:3", "y:1", "x:1:-1", "u::0",
		"f:", "f:1:2", "f:f:1", "f:f:r:1", "f:a:1", "f:c:1", "f:R:1", "f:y:1:0", "f:n:1:0:0", "f:r:1:2", "f:p:1:0:0:0:1:0", "f:s:1:0:0",
	} {
		if a, err := DecodeAction(data); !errors.Is(err, ErrBadCallback) {
			t.Errorf("DecodeAction(%q) = %+v, %v; want ErrBadCallback", data, a, err)
		}
	}
}

func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{"p:1a:5:7:7", "r:9", "n", "p:1:0:0:0", "p:zz:360:18:18", "s:1:4:8", "R:7", "a:1", "d:2", "c:3", "n:1:2:2", "p:b:7:9:9:3:2", "u:1:4", "y:2:9", "x:3:0", "f:r:9", "f:p:1:0:0:0", "f:h:2:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		a, err := DecodeAction(data)
		if err != nil {
			return
		}
		// Only canonical data decodes: it re-encodes to itself.
		if again := EncodeAction(a); again != data {
			t.Fatalf("%q decodes to %+v which encodes to %q", data, a, again)
		}
	})
}
