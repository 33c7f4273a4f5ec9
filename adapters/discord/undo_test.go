package discord

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
)

// TestUndoOnDiscord takes back a move on a 4×4 board, which is whole on
// Discord with ↩️ beside Resign, by the button and by the /undo slash
// command.
func TestUndoOnDiscord(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optGame, "4x4"), discordtest.StringOption(optLevel, "easy"))
	if n := len(placeButtons(board)); n != 16 {
		t.Fatalf("4×4 board with %d live cells", n)
	}
	h.tap(ann, board.ID, placeButtons(board)[5])
	board = h.message(board.ID)
	if n := len(placeButtons(board)); n != 14 {
		t.Fatalf("after the move and the reply: %d live cells", n)
	}
	h.tap(ann, board.ID, buttonOf(t, board, "u:"))
	board = h.message(board.ID)
	if n := len(placeButtons(board)); n != 16 || !strings.Contains(board.Content, "Takebacks: 1.") {
		t.Fatalf("after ↩️: %d live cells:\n%s", n, board.Content)
	}
	h.tap(ann, board.ID, placeButtons(board)[0])
	h.command(ann, "c", cmdUndo)
	board = h.message(board.ID)
	if n := len(placeButtons(board)); n != 16 || !strings.Contains(board.Content, "Takebacks: 2.") {
		t.Fatalf("after /undo: %d live cells:\n%s", n, board.Content)
	}
}
