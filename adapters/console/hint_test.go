package console

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// TestHintInTheTerminal asks for a hint by the numbered 💡 button and by
// /hint against the AI, and for one in a duel, which is refused.
func TestHintInTheTerminal(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seed := uint64(0)
	svc := session.New(st, &session.Config{NewSeed: func() uint64 { seed++; return seed }, Limits: session.Limits{HintsPerGame: 1}})
	d := adapters.NewDispatcher(svc, Platform, "", nil)
	script := strings.Join([]string{
		"/play hard", "11", // 💡 Hint
		"/hint", // the same hint again
		"5", "/hint",
		"/resign", "/stats",
		"/as alice", "/duel @bob first", "/as bob", "/accept", "/as alice", "/hint",
	}, "\n") + "\n"
	var out strings.Builder
	c := New(d, strings.NewReader(script), &out, session.User{ID: "local", Name: "you"}, "en")
	c.SetReplayDir(t.TempDir())
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"[10] 🏳 Resign [11] 💡 Hint",
		// The hard AI opens 3×3 in a corner or the centre: either way a
		// 🎯 on the board and its button.
		"🎯",
		"(hints left: 0).",
		"No hints left in this game (1 used).",
		"Hints: 1.",
		"(games with hints: 1;",
		"No hints in a duel: hints are only against the AI.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Count(got, "(hints left: 0).") != 2 {
		t.Errorf("want the one hint shown twice (💡, then /hint again)")
	}
	if t.Failed() {
		t.Logf("output:\n%s", got)
	}
}
