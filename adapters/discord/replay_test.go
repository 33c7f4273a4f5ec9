package discord

import (
	"bytes"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/render"
)

// TestReplayOnDiscord taps ▶️ under a finished board: the replay comes
// as a GIF attachment that only the tapper sees, once for a doubled tap
// (which is told it went a moment ago);
// 📋 and /export give the record, /history the list.
func TestReplayOnDiscord(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optGame, "4x4"), discordtest.StringOption(optLevel, "easy"), discordtest.StringOption(optSide, "second"))
	h.command(ann, "c", cmdResign)
	board = h.message(board.ID)
	play := buttonOf(t, board, "v:")
	// The replay is the tap's answer itself, which only ann sees.
	r := h.tap(ann, board.ID, play)
	if r.Type != 4 || len(r.Followups) != 0 {
		t.Fatalf("▶️ answered %+v", r)
	}
	m := h.message(r.Original)
	if !m.Ephemeral || m.VisibleTo != ann.ID || len(m.Attachments) != 1 || m.Attachments[0].Filename != "replay-"+string(h.game(board).ID())+".gif" ||
		!bytes.HasPrefix(m.Attachments[0].Data, []byte("GIF8")) || !strings.Contains(m.Content, "Moves: 1.") {
		t.Fatalf("replay message %+v", m)
	}
	if got := h.ephemeral(h.tap(ann, board.ID, play), ann); got != render.T(render.English, render.MsgSentRecently) {
		t.Fatalf("a doubled ▶️ answered %q, want that it went a moment ago", got)
	}
	if got := h.ephemeral(h.tap(ann, board.ID, buttonOf(t, board, "e:")), ann); !strings.Contains(got, "Moves (1): ") {
		t.Fatalf("📋 gave %q", got)
	}
	_, r = h.command(ann, "c", cmdExport)
	if got := h.ephemeral(r, ann); !strings.Contains(got, "Moves (1): ") {
		t.Fatalf("/export gave %q", got)
	}
	_, r = h.command(ann, "c", cmdHistory)
	if got := h.ephemeral(r, ann); !strings.Contains(got, "1. vs AI (easy) · 4×4") {
		t.Fatalf("/history gave %q", got)
	}
}
