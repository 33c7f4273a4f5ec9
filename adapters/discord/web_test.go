package discord

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/session"
)

// TestWebButtonAnswersItsTapperAlone plays with the web board on: the
// board carries a 🌐 button, and a tap on it answers the one who tapped,
// alone, with their own link to the game, and changes nothing.
func TestWebButtonAnswersItsTapperAlone(t *testing.T) {
	h := newHarness(t, withWebLinks)
	board := h.play(ann, "c1")
	button, ok := board.Button("🌐")
	if !ok {
		t.Fatalf("no 🌐 button on the board: %+v", board.Buttons())
	}
	web := button.CustomID
	for _, u := range []discordtest.User{ann, bob} {
		resp := h.tap(u, board.ID, web)
		m, _ := h.fake.Message(resp.Original)
		if resp.Type != 4 || !m.Ephemeral || m.VisibleTo != u.ID || !strings.Contains(m.Content, "https://board.example/#t="+strings.TrimPrefix(web, webPrefix)+"-"+u.ID) {
			t.Errorf("%s's tap on 🌐: %+v, message %+v", u.Name, resp, m)
		}
	}
	if m, _ := h.fake.Message(board.ID); m.Edits != 0 {
		t.Errorf("the board was edited %d times", m.Edits)
	}
}

// TestWebCommandGivesTheLinkOfTheUsersGame registers /web with the web
// board on: a player of a board too big for the 🌐 button gets their
// link to it, alone; someone who plays nothing in the channel is told
// so.
func TestWebCommandGivesTheLinkOfTheUsersGame(t *testing.T) {
	h := newHarness(t, withWebLinks)
	found := false
	for _, c := range h.fake.Commands("") {
		found = found || strings.Contains(string(c), `"name":"web"`)
	}
	if !found {
		t.Fatal("/web is not registered")
	}
	board := h.play(ann, "c2", discordtest.StringOption("game", "7x7"))
	if _, ok := board.Button("🌐"); ok {
		t.Fatalf("a 7x7 board has room for 🌐: %+v", board.Buttons())
	}
	_, r := h.command(ann, "c2", cmdWeb)
	m, _ := h.fake.Message(r.Original)
	game := board.Buttons()[len(board.Buttons())-1].CustomID[len("r:"):]
	if !m.Ephemeral || m.VisibleTo != ann.ID || !strings.Contains(m.Content, "https://board.example/#t="+game+"-"+ann.ID) {
		t.Errorf("ann's /web: %+v", m)
	}
	_, r = h.command(bob, "c2", cmdWeb)
	if m, _ := h.fake.Message(r.Original); !m.Ephemeral || strings.Contains(m.Content, "https://") {
		t.Errorf("bob, who plays nothing here, got %+v", m)
	}
}

// withWebLinks turns the web board on with links that name their game
// and user.
func withWebLinks(c *Config) {
	c.WebLink = func(game session.GameID, user string) string {
		return "https://board.example/#t=" + string(game) + "-" + user
	}
}
