package adapters

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// TestCarryIssuesEffectsInOneOrder checks the one order of effects,
// whatever order a decision lists them in: the notice (one
// acknowledgement, even with nothing to say), the files, what is said,
// the boards; and that new boards come back to be bound.
func TestCarryIssuesEffectsInOneOrder(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	v := read(d.Text(ctx, req("alice"), "/play easy")).Game
	if v == nil {
		t.Fatal("no game")
	}
	effects := []Effect{
		Show{Game: *v},
		Say{Text: "said"},
		Attach{File: File{Kind: Record, Caption: "record"}},
		Notice{Text: "noticed"},
		Show{Game: *v, At: Place{Platform: "test", Chat: "c", Message: "m9"}},
	}
	want := []string{
		`notify("noticed" {  } )`,
		`attach("record" {  } )`,
		`send("said" {  } )`,
		fmt.Sprintf(`send("" { c } %s)`, v.ID()),
		fmt.Sprintf(`edit("" {test c m9} %s)`, v.ID()),
	}
	// Any order of the same effects is carried out the same way.
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {3, 2, 1, 0, 4}, {2, 0, 4, 1, 3}} {
		var dec Decision
		for _, i := range order {
			dec.Effects = append(dec.Effects, effects[i])
		}
		f := &recorder{platform: "test"}
		binds := Carry(ctx, f, dec, nil)
		var got []string
		for _, c := range f.calls {
			got = append(got, c.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("order %v: calls\n%v\nwant\n%v", order, got, want)
		}
		if len(binds) != 1 || binds[0] != (session.Binding{Game: v.ID(), Message: "new4"}) {
			t.Errorf("order %v: bindings %+v", order, binds)
		}
	}

	// A decision with no notice still acknowledges, once.
	f := &recorder{platform: "test"}
	Carry(ctx, f, Decision{Effects: []Effect{Show{Game: *v, At: PlaceOf(*v)}}}, nil)
	if len(f.calls) != 2 || f.calls[0].method != "notify" || f.calls[0].text != "" {
		t.Errorf("calls %v, want an empty notify first", f.calls)
	}
}

// TestCarryPostsAgainWhereAnEditCannotGo checks that a board whose
// message is gone is posted anew and bound, and that effects aimed at
// another front's message go to that front, which never posts: not for
// a request of another platform, nor for a decision of no request.
func TestCarryPostsAgainWhereAnEditCannotGo(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	v := *read(d.Text(ctx, req("alice"), "/play easy")).Game
	if err := bind(d, v.ID(), "m1"); err != nil {
		t.Fatal(err)
	}
	v = *read(d.Tap(ctx, req("alice"), EncodeAction(render.Action{Kind: render.Noop, Game: v.ID(), Cell: engine.Point{X: 1, Y: 1}}))).Game

	f := &recorder{platform: "test", gone: map[string]bool{"m1": true}}
	binds := Carry(ctx, f, Decision{Effects: []Effect{Show{Game: v, At: PlaceOf(v)}}}, nil)
	if len(f.calls) != 3 || f.calls[1].method != "edit" || f.calls[2].method != "send" {
		t.Fatalf("calls %v, want notify, edit, send", f.calls)
	}
	if len(binds) != 1 || binds[0].Message != "new3" {
		t.Errorf("bindings %+v", binds)
	}

	// The web board (another platform) taps; the chat's message is
	// edited through its own front.
	web, chat := &recorder{platform: "web"}, &recorder{platform: "test"}
	Carry(ctx, web, Decision{Effects: []Effect{Notice{Text: "n"}, Show{Game: v, At: PlaceOf(v)}}}, Fronts{"test": chat})
	if len(web.calls) != 1 || web.calls[0].method != "notify" || len(chat.calls) != 1 || chat.calls[0].method != "edit" {
		t.Errorf("web %v, chat %v: want the notice on the web, the edit in the chat", web.calls, chat.calls)
	}
	// No request: only edits, and a gone message is not posted again.
	chat.calls, chat.gone = nil, map[string]bool{"m1": true}
	if binds := Carry(ctx, nil, Decision{Effects: []Effect{Notice{Text: "n"}, Show{Game: v, At: PlaceOf(v)}}}, Fronts{"test": chat}); len(binds) != 0 {
		t.Errorf("bindings %+v without a request", binds)
	}
	if len(chat.calls) != 1 || chat.calls[0].method != "edit" {
		t.Errorf("calls %v, want the one edit", chat.calls)
	}
}
