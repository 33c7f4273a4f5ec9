package console

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/render"
)

// runAt is run on a clock that stands still, so that a doubled tap is
// one whatever the machine's speed.
func runAt(t *testing.T, path, script string) string {
	t.Helper()
	return runWith(t, path, script, func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) })
}

func TestHistoryReplayAndExport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	// The AI moves first, then the game is resigned; /history lists it
	// with ▶️ [1] and 📋 [2].
	out := runAt(t, path, "/play easy second\n/resign\n/history\n1\n1\n/history\n2\n/export\n")
	if !strings.Contains(out, "1. vs AI (easy) · Tic-tac-toe · lost · moves: 1 · 2026-03-04") {
		t.Fatalf("no history line:\n%s", out)
	}
	gif := filepath.Join(dir, "replay-1.gif")
	if strings.Count(out, "▶️ "+gif) != 1 {
		t.Fatalf("want the replay's path printed once (a doubled tap sends one):\n%s", out)
	}
	if !strings.Contains(out, "> "+render.T(render.English, render.MsgSentRecently)+"\n") {
		t.Errorf("the doubled ▶️ was not told it went a moment ago:\n%s", out)
	}
	data, err := os.ReadFile(gif)
	if err != nil || !bytes.HasPrefix(data, []byte("GIF89a")) {
		t.Fatalf("replay file: %v, %.6q", err, data)
	}
	if n := strings.Count(out, "Moves (1): "); n != 2 {
		t.Errorf("the record printed %d times, want by 📋 and /export:\n%s", n, out)
	}
}

// TestChartFileNameIsSafe checks that the chart of a user of /as, whose
// id has a colon, is written under a name of letters, digits, "-", "_"
// and ".".
func TestChartFileNameIsSafe(t *testing.T) {
	dir := t.TempDir()
	out := runAt(t, filepath.Join(dir, "bot.db"), "/as bob\n/play easy second\n/resign\n/stats\n")
	chart := filepath.Join(dir, "chart-as_bob.png")
	if !strings.Contains(out, "📈 "+chart+"\n") {
		t.Fatalf("want the chart written as %s:\n%s", chart, out)
	}
	if data, err := os.ReadFile(chart); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("chart file: %v, %.6q", err, data)
	}
}
