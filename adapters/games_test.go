package adapters

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// TestGamesListsTheRunningGames checks /games: with no running game it
// says so; else it lists the user's running games in the chat, a button
// each, which shows that game as a new message. Finished games, other
// users' games and other chats' games are left out.
func TestGamesListsTheRunningGames(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{})
	alice, bob, carol := req("alice"), req("bob"), req("carol")
	for _, l := range render.Langs {
		r := alice
		r.Locale = string(l)
		if got := read(d.Text(ctx, r, "/games")); got.Text != render.T(l, render.MsgNoGame) || got.Buttons != nil || got.Game != nil {
			t.Fatalf("/games in %s with no game: %+v", l, got)
		}
	}
	finishGame(t, d, alice, "/play easy")
	elsewhere := alice
	elsewhere.Chat = "c2"
	read(d.Text(ctx, elsewhere, "/play easy"))
	ai := *read(d.Text(ctx, alice, "/play easy")).Game
	read(d.Text(ctx, alice, "/duel @bob first"))
	duel := *read(d.Text(ctx, bob, "/accept")).Game
	read(d.Text(ctx, carol, "/play easy"))

	r := read(d.Text(ctx, alice, "/games"))
	if r.Text != "Your running games here; tap one to show it:" || r.Buttons == nil || len(r.Buttons.Rows) != 2 {
		t.Fatalf("/games: %+v", r)
	}
	for i, want := range []session.View{ai, duel} {
		b := r.Buttons.Rows[i][0]
		if b.Action.Kind != render.Show || b.Action.Game != want.ID() || b.Label != render.Title(want, render.English) {
			t.Errorf("button %d: %+v, want one that shows %s", i+1, b, want.ID())
		}
	}
	// After a restart the duel's board is far up the chat: its button
	// shows it again, below.
	shown := read(d.Tap(ctx, alice, answer(t, r, duel.ID())))
	if shown.Game == nil || shown.Game.ID() != duel.ID() || shown.Edit != "" {
		t.Fatalf("showing the duel: %+v", shown)
	}
	if got := read(d.Text(ctx, bob, "/games")); got.Buttons == nil || len(got.Buttons.Rows) != 1 || got.Buttons.Rows[0][0].Action.Game != duel.ID() {
		t.Fatalf("bob's /games: %+v", got)
	}
	zh := alice
	zh.Locale = "zh"
	if got := read(d.Text(ctx, zh, "/games")); got.Text != "你在这里进行中的对局；点一局即可显示：" {
		t.Errorf("/games in Chinese: %q", got.Text)
	}
	if got := read(d.Text(ctx, alice, "/games all")); got.Text != `I don't understand "all": nothing goes after /games.` {
		t.Errorf("/games all: %+v", got)
	}
	for _, l := range render.Langs {
		r := alice
		r.Locale = string(l)
		if got := read(d.Text(ctx, r, "/help")); !strings.Contains(got.Text, "/games — ") {
			t.Errorf("/help in %s does not give /games:\n%s", l, got.Text)
		}
	}
}
