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
		"alice — duel rating 1200 (0 duels)",
		"No finished games yet.",
		"Nobody is on this board yet.",
		"bob 向 alice 发起 ttt 对战。", // the rematch, colours swapped, in bob's language
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
