package console

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestResigningADuelBeforeBothMovedAbortsIt plays, in the terminal, a duel
// that alice resigns after her first move: it shows as aborted in both
// languages, counts in nobody's stats, and can be rematched.
func TestResigningADuelBeforeBothMovedAbortsIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	script := strings.Join([]string{
		"/as alice", "/duel @bob first",
		"/as bob", "/accept",
		"/as alice", "b2", "/resign",
		"/stats", "/top",
		"/as bob", "/lang zh", "/rematch",
		"/as alice", "/rematch",
	}, "\n") + "\n"
	out := run(t, path, script)
	for _, want := range []string{
		"Game aborted: it ended before both players moved. No winner, no rating change.",
		"alice — duel rating 1200, duels played: 0",
		"No finished games yet.",
		"Nobody is on this board yet.",
		"bob 向 alice 发起对战：井字棋。", // the rematch, colours swapped, in bob's language
		"❌ bob  vs  ⭕ alice",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, bad := range []string{"resigned", "wins"} {
		if strings.Contains(out, bad) {
			t.Errorf("output says %q for an aborted duel", bad)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}

// TestTakebackInTheTerminal takes back a move against the AI by its
// numbered ↩️ button and by /undo, then asks for one in a duel that the
// opponent allows by button.
func TestTakebackInTheTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	script := strings.Join([]string{
		"/play easy", "5", // b2, and the AI replies
		"11", // ↩️ Undo: both gone
		"5", "/undo",
		"/resign", "/stats",
		"/as alice", "/duel @bob first", "/as bob", "/accept",
		"/as alice", "b2", "11", // alice asks
		"/as bob", "11", // bob taps ✅ Allow takeback
	}, "\n") + "\n"
	out := run(t, path, script)
	for _, want := range []string{
		"[10] 🏳 Resign [11] ↩️ Undo",
		"Takebacks: 1.",
		"Takebacks: 2.",
		"(games with takebacks: 1, won: 0;",
		"Takeback asked by ❌ alice. ⭕ bob: accept or refuse (or type /undo to accept).",
		"[10] 🏳 Resign [11] ✅ Allow takeback [12] 🚫 Refuse takeback",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// The duel's last board: no stone, one takeback, no request.
	last := out[strings.LastIndex(out, "❌ alice  vs  ⭕ bob"):]
	if !strings.Contains(last, "3️⃣⬜⬜⬜\n2️⃣⬜⬜⬜\n1️⃣⬜⬜⬜") || !strings.Contains(last, "Takebacks: 1.") || strings.Contains(last, "Takeback asked by") {
		t.Errorf("duel after the takeback:\n%s", last)
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}
