package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchedBuffer is output a test waits on: every write wakes wait.
type watchedBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newWatchedBuffer() *watchedBuffer { return &watchedBuffer{changed: make(chan struct{})} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	close(w.changed)
	w.changed = make(chan struct{})
	return len(p), nil
}

// wait waits until cond holds of the output.
func (w *watchedBuffer) wait(t *testing.T, what string, cond func(string) bool) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		w.mu.Lock()
		s, ch := w.b.String(), w.changed
		w.mu.Unlock()
		if cond(s) {
			return s
		}
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("waiting for %s; output:\n%s", what, s)
		}
	}
}

var linkRE = regexp.MustCompile(`🌐 [^:]+: (http://[^/\s]+)/#t=(\S+)`)

// TestTerminalPrintsAWorkingWebLink runs the terminal game: a new board
// prints its web link, the link's token reads the game, and a move made
// through it is shown in the terminal.
func TestTerminalPrintsAWorkingWebLink(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	in, typed := io.Pipe()
	out := newWatchedBuffer()
	var errOut strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"-db", db}, env(map[string]string{"USER": "ann"}), in, out, &errOut)
	}()
	io.WriteString(typed, "/play 7x7 easy\n")
	m := linkRE.FindStringSubmatch(out.wait(t, "the web link", linkRE.MatchString))
	base, token := m[1], m[2]
	call := func(method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&v) != nil {
			t.Fatalf("%s %s: %d", method, path, res.StatusCode)
		}
		return v
	}
	if g := call("GET", "/api/game", ""); g["width"] != 7.0 || g["you"] != 0.0 {
		t.Fatalf("the game through the link: %v", g)
	}
	before := strings.Count(out.wait(t, "the board", func(string) bool { return true }), "Last move")
	ans := call("POST", "/api/act", `{"kind":"place","x":3,"y":3,"moveNo":0,"nonce":"terminal-web-move"}`)
	if moves := ans["state"].(map[string]any)["moves"].([]any); len(moves) != 2 {
		t.Fatalf("after the web move: %v", ans)
	}
	out.wait(t, "the board redrawn in the terminal", func(s string) bool { return strings.Count(s, "Last move") > before })
	typed.Close()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
}
