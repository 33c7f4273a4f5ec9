package console

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

func TestDuelYourselfAsTwoUsers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	script := strings.Join([]string{
		"/as alice", "/duel @bob first",
		"/as carol", "1", // carol taps Accept on a challenge for bob
		"/as bob", "1", // bob taps Accept
		"/as alice", "a3", "/as bob", "a2", "/as alice", "b3", "/as bob", "b2",
		"/as alice", "b1",
		"/as bob", "c1",
		"/as alice", "c3",
		"/as bob", "/rematch", "/as alice", "/rematch",
		"/stats", "/top", "/lang zh", "/stats",
		"/as carol", "/duel @bob", "/as bob", "/decline",
		"/as carol", "/duel", "/cancel", "/accept",
	}, "\n") + "\n"
	out := run(t, path, script)
	for _, want := range []string{
		"You are now alice.",
		"Challenge from alice to bob: Tic-tac-toe. alice will play ❌.",
		"[ 1] ✅ Accept [ 2] 🚫 Decline [ 3] ✖️ Cancel",
		"> This challenge is not for you.\n",
		"❌ alice  vs  ⭕ bob · Tic-tac-toe",
		"Winner: ❌ alice, with three in a row.",
		"Challenge from bob to alice: Tic-tac-toe. bob will play ❌.", // the rematch, colours swapped
		"❌ bob  vs  ⭕ alice",
		"alice — duel rating 1216, duels played: 1",
		"Tic-tac-toe vs people: 1 won, 0 lost, 0 drawn",
		"Best duel ratings here:\n1. alice — 1216\n2. bob — 1184\nYour rank: 1.",
		"之后我会用中文回复你。",
		"alice — 对战积分 1216，已下对战：1",
		"井字棋 对 玩家：胜 1，负 0，平 0",
		"bob declined the challenge.",
		"Open challenge from carol: Tic-tac-toe.",
		"carol withdrew the challenge.",
		"There is no challenge here for you.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// bob's /rematch challenges alice; hers accepts it: one game.
	if n := strings.Count(out, "❌ bob  vs  ⭕ alice"); n != 1 {
		t.Errorf("rematch board shown %d times, want 1", n)
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
	if testing.Verbose() {
		t.Log(out)
	}
}

// notifyWriter collects output and signals every write.
type notifyWriter struct {
	mu    sync.Mutex
	sb    strings.Builder
	wrote chan struct{}
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sb.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (w *notifyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sb.String()
}

// waitFor blocks until the output contains s.
func (w *notifyWriter) waitFor(t *testing.T, s string) {
	t.Helper()
	for !strings.Contains(w.String(), s) {
		<-w.wrote
	}
}

func TestSweeperUpdatesTheConsole(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	var c *Console
	svc := session.New(st, &session.Config{Now: clock, OnExpire: func(v session.View) { c.Expired(v) }})
	d := adapters.NewDispatcher(svc, Platform, "", nil)
	in, feed := io.Pipe()
	out := &notifyWriter{wrote: make(chan struct{}, 1)}
	c = New(d, in, out, session.User{ID: "local", Name: "you"}, "en")
	c.SetReplayDir(t.TempDir())
	done := make(chan error)
	go func() { done <- c.Run(context.Background()) }()

	io.WriteString(feed, "/duel @bob\n")
	out.waitFor(t, "Challenge from you to bob")
	mu.Lock()
	now = now.Add(session.DefaultChallengeTTL)
	mu.Unlock()
	if n, err := svc.Sweep(context.Background()); n != 1 || err != nil {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	out.waitFor(t, "The challenge from you lapsed: nobody accepted it in time.")
	feed.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestTypedMoveGoesToTheGameOnScreen checks, across a restart, that a
// typed move goes to the game last shown (the duel /accept showed), not
// to the player's game against the AI; and that once that game is over
// it goes to the one game left running, without asking which.
func TestTypedMoveGoesToTheGameOnScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	run(t, path, "/play easy\n/duel @bob first\n/as bob\n/accept\n/as\n")
	out := run(t, path, "b2\n")
	if !strings.HasSuffix(strings.TrimSuffix(out, "> \n"), "⭕ bob to move\nLast move: ❌ b2\n[ 1] [ 2] [ 3]\n[ 4]  ✖️  [ 6]\n[ 7] [ 8] [ 9]\n[10] 🏳 Resign [11] ↩️ Undo\n") {
		t.Fatalf("b2 did not go to the duel on screen:\n%s", out)
	}
	// c3 goes to the game against the AI, and the AI answers.
	out = run(t, path, "/as bob\n/resign\n/as\nc3\n")
	i := strings.LastIndex(out, "❌ you  vs  ⭕ AI (easy)")
	if i < 0 || strings.Contains(out, "Which game") || !strings.Contains(out[i:], "Last move: ⭕") {
		t.Errorf("c3 after the duel ended did not go to the AI game:\n%s", out)
	}
}
