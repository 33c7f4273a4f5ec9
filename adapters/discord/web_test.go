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
	h := newHarness(t, func(c *Config) {
		c.WebLink = func(game session.GameID, user string) string {
			return "https://board.example/#t=" + string(game) + "-" + user
		}
	})
	board := h.play(ann, "c1")
	web := ""
	for _, b := range board.Buttons() {
		if b.Label == "🌐" {
			web = b.CustomID
		}
	}
	if web == "" {
		t.Fatalf("no 🌐 button on the board: %+v", board.Buttons())
	}
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
