package render

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

func TestChallengeMessages(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	svc := session.New(st, &session.Config{Now: func() time.Time { return now }})
	ctx := context.Background()
	alice := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "1", Name: "alice"}}
	bob := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "2", Name: "bob", Handle: "bob"}}

	open, _ := svc.Begin(ctx, session.Request{Actor: alice}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe(), Side: session.First})
	to, _ := svc.Begin(ctx, session.Request{Actor: alice}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe(), Opponent: session.User{Handle: "bob"}, Side: session.Second})
	for _, tt := range []struct {
		v       session.View
		text    string
		buttons []ActionKind
	}{
		{open, "Open challenge from alice: Tic-tac-toe. alice will play ❌.", []ActionKind{Accept, Cancel}},
		{to, "Challenge from alice to bob: Tic-tac-toe. alice will play ⭕.", []ActionKind{Accept, Decline, Cancel}},
	} {
		text, kb := Message(tt.v, English, TelegramLayout, nil)
		var kinds []ActionKind
		for _, b := range kb.Rows[0] {
			kinds = append(kinds, b.Action.Kind)
			if b.Action.Game != tt.v.ID() {
				t.Errorf("button %q acts on game %s", b.Label, b.Action.Game)
			}
		}
		if text != tt.text || len(kb.Rows) != 1 || fmt.Sprint(kinds) != fmt.Sprint(tt.buttons) {
			t.Errorf("message %q with buttons %v; want %q with %v", text, kinds, tt.text, tt.buttons)
		}
		if zh, _ := Message(tt.v, Chinese, TelegramLayout, nil); !strings.Contains(zh, "对战") {
			t.Errorf("Chinese challenge text %q", zh)
		}
	}
	d, _ := svc.Begin(ctx, session.Request{Actor: bob}).Decline(to.ID())
	if text, kb := Message(d, English, TelegramLayout, nil); text != "bob declined the challenge." || kb.Buttons() != 0 {
		t.Errorf("declined: %q with %d buttons", text, kb.Buttons())
	}
	g, _ := svc.Begin(ctx, session.Request{Actor: bob}).Accept(open.ID())
	if text, kb := Message(g, English, TelegramLayout, nil); !strings.Contains(text, "❌ alice to move") || kb.Rows[len(kb.Rows)-1][0].Action.Kind != Resign {
		t.Errorf("accepted game: %q", text)
	}
	// Both move, so that the expiry has a winner (before, it aborts).
	g, _ = svc.Begin(ctx, session.Request{Actor: alice}).Place(session.PlaceRequest{Game: g.ID(), MoveNo: 0, Cell: engine.Point{X: 1, Y: 1}})
	g, _ = svc.Begin(ctx, session.Request{Actor: bob}).Place(session.PlaceRequest{Game: g.ID(), MoveNo: 1, Cell: engine.Point{X: 0, Y: 0}})
	now = now.Add(session.DefaultTurnLimit)
	_, _ = svc.Sweep(ctx)
	e, _ := svc.Game(ctx, g.ID())
	text, kb := Message(e, English, TelegramLayout, nil)
	if !strings.Contains(text, "The game expired. ❌ alice ran out of time. Winner: ⭕ bob.") || strings.Count(text, "Winner") != 1 || kb.Rows[len(kb.Rows)-1][len(kb.Rows[len(kb.Rows)-1])-1].Action.Kind != Rematch {
		t.Errorf("expired duel: %q", text)
	}
}

func TestNewRefusalsHaveMessages(t *testing.T) {
	for _, err := range []error{session.ErrExpired, session.ErrNotForYou, session.ErrNotOpen, session.ErrNotStarted, session.ErrNotOver, session.ErrNameOnly} {
		for _, l := range Langs {
			if msg := ErrorText(l, fmt.Errorf("session: x: %w", err)); msg == T(l, MsgInternal) {
				t.Errorf("%v has no %s message", err, l)
			}
		}
	}
}

func TestAnExpiredDuelSaysWhoRanOutOfTimeOnItsStatusLine(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	svc := session.New(st, &session.Config{Now: func() time.Time { return now }})
	ctx := context.Background()
	alice := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "1", Name: "alice"}}
	bob := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "2", Name: "bob"}}
	ch, _ := svc.Begin(ctx, session.Request{Actor: alice}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe(), Side: session.First})
	g, err := svc.Begin(ctx, session.Request{Actor: bob}).Accept(ch.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, session.Request{Actor: alice}).Place(session.PlaceRequest{Game: g.ID(), MoveNo: g.MoveNo(), Cell: engine.Point{X: 1, Y: 1}}); err != nil {
		t.Fatal(err)
	}
	// Both players moved, so the duel is not aborted when it expires.
	if _, err := svc.Begin(ctx, session.Request{Actor: bob}).Place(session.PlaceRequest{Game: g.ID(), MoveNo: 1, Cell: engine.Point{X: 0, Y: 0}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, session.Request{Actor: alice}).Place(session.PlaceRequest{Game: g.ID(), MoveNo: 2, Cell: engine.Point{X: 2, Y: 2}}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(session.DefaultTurnLimit)
	_, _ = svc.Sweep(ctx)
	e, _ := svc.Game(ctx, g.ID())
	text, _ := Message(e, English, TelegramLayout, nil)
	lines := strings.Split(text, "\n")
	if n := len(lines); lines[n-2] != "The game expired. ⭕ bob ran out of time. Winner: ❌ alice." || lines[n-1] != "Last move: ❌ c1" {
		t.Errorf("expired duel:\n%s", text)
	}
}
