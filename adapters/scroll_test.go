package adapters

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// newTestDispatcher returns a dispatcher of platform "test" on a bbolt
// file in a temp directory, with seeded games.
func newTestDispatcher(t *testing.T) *Dispatcher {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := session.New(st, &session.Config{NewSeed: func() uint64 { return 3 }})
	return NewDispatcher(svc, "test", "", nil)
}

// layouts are the platforms' keyboard limits.
var layouts = map[string]render.Layout{"telegram": render.TelegramLayout, "discord": render.DiscordLayout}

// TestEveryButtonTravelsAsCallbackData walks the keyboards of every preset
// on both layouts as a player would: each button's action is encoded,
// checked against the 64-byte limit and decoded back, and each arrow is
// tapped through the dispatcher, whose reply gives the next window. Every
// empty cell must be reached.
func TestEveryButtonTravelsAsCallbackData(t *testing.T) {
	d := newTestDispatcher(t)
	ctx := context.Background()
	for _, preset := range engine.PresetNames() {
		for lname, layout := range layouts {
			req := Request{Chat: preset + lname, User: session.User{ID: "1", Name: "alice"}, Locale: "zh-CN", Message: "m1", HasButton: true}
			start := read(d.Text(ctx, req, "/play easy second "+preset))
			if start.Game == nil {
				t.Fatalf("%s: /play gave %+v", preset, start)
			}
			b := start.Game.Board()
			reached := map[engine.Point]bool{}
			seen := map[engine.Point]bool{}
			replies := []reply{start}
			for len(replies) > 0 {
				r := replies[0]
				replies = replies[1:]
				kb := render.BoardKeyboard(*r.Game, r.Lang, layout, r.Window)
				if seen[kb.Window.Origin] {
					continue
				}
				seen[kb.Window.Origin] = true
				for _, row := range kb.Rows {
					for _, btn := range row {
						data := EncodeAction(btn.Action)
						what := fmt.Sprintf("%s on %s: %+v", preset, lname, btn.Action)
						if len(data) > MaxCallbackLen {
							t.Errorf("%s: %d bytes of callback data", what, len(data))
						}
						if a, err := DecodeAction(data); err != nil || a != btn.Action {
							t.Errorf("%s: decodes to %+v, %v", what, a, err)
						}
						switch btn.Action.Kind {
						case render.Place:
							reached[btn.Action.Cell] = true
						case render.Scroll:
							next := read(d.Tap(ctx, req, data))
							if next.Game == nil || next.Game.ID() != start.Game.ID() || next.Edit != "m1" || next.Window == nil || *next.Window != btn.Action.Window {
								t.Fatalf("%s: tap gave %+v", what, next)
							}
							replies = append(replies, next)
						}
					}
				}
			}
			for _, p := range b.LegalMoves() {
				if !reached[p] {
					t.Errorf("%s on %s: %v unreachable", preset, lname, p)
				}
			}
		}
	}
}

func TestScrollFromAnotherChatShowsNothing(t *testing.T) {
	d := newTestDispatcher(t)
	ctx := context.Background()
	req := Request{Chat: "c1", User: session.User{ID: "1"}, Locale: "en", Message: "m1", HasButton: true}
	start := read(d.Text(ctx, req, "/play gomoku19"))
	data := EncodeAction(render.Action{Kind: render.Scroll, Game: start.Game.ID(), Window: engine.Point{X: 3, Y: 4}})
	req.Chat = "c2"
	r := read(d.Tap(ctx, req, data))
	if r.Game != nil || r.Notice != render.T(render.English, render.MsgNotFound) {
		t.Errorf("tap from another chat: %+v", r)
	}
	data = EncodeAction(render.Action{Kind: render.Scroll, Game: "nosuchgame", Window: engine.Point{X: 3, Y: 4}})
	if r := read(d.Tap(ctx, req, data)); r.Game != nil || r.Notice == "" {
		t.Errorf("tap on a missing game: %+v", r)
	}
}

func TestRematchSwapsSides(t *testing.T) {
	d := newTestDispatcher(t)
	ctx := context.Background()
	req := Request{Chat: "c1", User: session.User{ID: "1", Name: "alice"}, Locale: "en", Message: "m1", HasButton: true}
	start := read(d.Text(ctx, req, "/play hard 5x5"))
	rematch := EncodeAction(render.Action{Kind: render.Rematch, Game: start.Game.ID()})
	if r := read(d.Tap(ctx, req, rematch)); r.Game != nil || r.Notice != render.ErrorText(render.English, session.ErrNotOver) {
		t.Fatalf("rematch of a running game: %+v", r)
	}
	over := read(d.Text(ctx, req, "/resign"))
	if over.Game == nil || over.Game.Status() != session.Resigned {
		t.Fatalf("/resign: %+v", over)
	}
	other := req
	other.User = session.User{ID: "2"}
	if r := read(d.Tap(ctx, other, rematch)); r.Game != nil || r.Notice != render.T(render.English, render.MsgNotAPlayer) {
		t.Errorf("rematch by a stranger: %+v", r)
	}
	r := read(d.Tap(ctx, req, rematch))
	if r.Game == nil || r.Edit != "" || r.Game.ID() == start.Game.ID() {
		t.Fatalf("rematch: %+v", r)
	}
	if r.Game.Rules() != start.Game.Rules() || r.Game.Seat(engine.White).User.ID != "1" || r.Game.Seat(engine.Black).AI != engine.Hard {
		t.Errorf("rematch seats %+v %+v rules %v", r.Game.Seat(engine.Black), r.Game.Seat(engine.White), r.Game.Rules())
	}
}
