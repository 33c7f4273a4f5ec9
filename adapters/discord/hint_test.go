package discord

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
)

// TestHintOnDiscord asks for a hint by 💡 on a 4×4 board, which has room
// for it beside Resign, and by the /hint slash command on 7×7, which has
// none: either way the board shows 🎯.
func TestHintOnDiscord(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optGame, "4x4"), discordtest.StringOption(optLevel, "easy"))
	h.tap(ann, board.ID, buttonOf(t, board, "h:"))
	board = h.message(board.ID)
	if !strings.Contains(board.Content, "🎯") || !strings.Contains(board.Content, "(hints left: 2).") {
		t.Fatalf("after 💡:\n%s", board.Content)
	}
	h.command(ann, "c", cmdResign)

	board = h.play(ann, "c", discordtest.StringOption(optGame, "7x7"), discordtest.StringOption(optLevel, "easy"))
	for _, b := range board.Buttons() {
		if strings.HasPrefix(b.CustomID, "h:") {
			t.Fatalf("💡 on a 7×7 window: %+v", b)
		}
	}
	h.command(ann, "c", cmdHint)
	board = h.message(board.ID)
	if !strings.Contains(board.Content, "🎯") || !strings.Contains(board.Content, "(hints left: 2).") {
		t.Fatalf("after /hint:\n%s", board.Content)
	}
}
