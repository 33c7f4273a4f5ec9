package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// labelLog is a match log of two games (and lines that are not games).
const labelLog = `game 1: a black, b white: a wins (five); 7,7 8,8 7,8 8,9 7,9 8,10 7,10 8,12 7,11
  a: 1 games: +1 -0 =0
game 2: b black, a white: b wins (five); 3,3 4,4 3,4 4,5 3,5 4,6 3,6 4,8 3,7
`

func TestLabelEvaluatesSampledPositions(t *testing.T) {
	dir := t.TempDir()
	logName, cache := filepath.Join(dir, "games.log"), filepath.Join(dir, "labels.json")
	if err := os.WriteFile(logName, []byte(labelLog), 0o644); err != nil {
		t.Fatal(err)
	}
	c := regretConfigOf("row", "oracle", 1)
	var out strings.Builder
	if err := runLabel(c, logName, cache, 3, &out); err != nil {
		t.Fatal(err)
	}
	if want := "6 positions from " + logName + " under rule 0: 6 evaluated"; !strings.Contains(out.String(), want) {
		t.Errorf("summary %q, want %q", out.String(), want)
	}
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	var labels map[string]judgement
	if err := json.Unmarshal(data, &labels); err != nil {
		t.Fatal(err)
	}
	if len(labels) != 6 {
		t.Fatalf("%d labels, want 6: %v", len(labels), labels)
	}
	for key, j := range labels {
		ms, err := engine.ParseMoves(key)
		if err != nil {
			t.Fatal(err)
		}
		// Plies 3 to 6 of the nine-move games, and the fake oracle's value
		// for the side to move: 50, plus 100 for each of its stones on an
		// odd row, less 100 for each of the opponent's.
		if len(ms) < labelFrom || len(ms) > 9-labelEnd {
			t.Errorf("position %q: %d plies, want 3 to 6", key, len(ms))
		}
		want := 50
		for i, m := range ms {
			if m.Y%2 == 1 {
				if (len(ms)-i)%2 == 0 {
					want += 100
				} else {
					want -= 100
				}
			}
		}
		if j.Eval != want {
			t.Errorf("position %q: eval %d, want %d", key, j.Eval, want)
		}
	}
	// Again with an oracle that never answers: everything is in the cache.
	c = regretConfigOf("row", "mute", 1)
	c.guard = 100 * time.Millisecond
	out.Reset()
	if err := runLabel(c, logName, cache, 3, &out); err != nil {
		t.Fatalf("second run asked the oracle: %v", err)
	}
	if want := "0 evaluated by mute#2 (1s each), 6 already in"; !strings.Contains(out.String(), want) {
		t.Errorf("summary %q, want %q", out.String(), want)
	}
}

func TestSampleGamesIsSeeded(t *testing.T) {
	sample := func(seed uint64) [][]string {
		ps, err := sampleGames(strings.NewReader(labelLog), 2, seed)
		if err != nil {
			t.Fatal(err)
		}
		var keys [][]string
		for _, p := range ps {
			var k []string
			for _, m := range p {
				k = append(k, fmt.Sprint(m))
			}
			keys = append(keys, k)
		}
		return keys
	}
	a, b := sample(5), sample(5)
	if len(a) != 4 || !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("seed 5 gave %v, then %v; want the same 4 positions", a, b)
	}
	if _, err := sampleGames(strings.NewReader("game 1: x; 7,7 8,x\n"), 2, 1); err == nil {
		t.Error("a bad move in the log was not reported")
	}
}
