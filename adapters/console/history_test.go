package console

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/storetest"
)

// runAt is run on a clock that stands still, so that a doubled tap is
// one whatever the machine's speed.
func runAt(t *testing.T, path, script string) string {
	t.Helper()
	st, err := storetest.OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seed := uint64(0)
	now := func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	svc := session.New(st, &session.Config{Now: now, NewSeed: func() uint64 { seed++; return seed }})
	var out strings.Builder
	c := New(adapters.NewDispatcher(svc, Platform, "", nil), strings.NewReader(script), &out, session.User{ID: "local", Name: "you"}, "en")
	c.SetReplayDir(filepath.Dir(path))
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.String()
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
	data, err := os.ReadFile(gif)
	if err != nil || !bytes.HasPrefix(data, []byte("GIF89a")) {
		t.Fatalf("replay file: %v, %.6q", err, data)
	}
	if n := strings.Count(out, "Moves (1): "); n != 2 {
		t.Errorf("the record printed %d times, want by 📋 and /export:\n%s", n, out)
	}
}
