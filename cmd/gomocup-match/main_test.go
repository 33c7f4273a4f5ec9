package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// The tests play matches between fake engines: the test binary itself,
// started with GOMOCUP_FAKE=1 and a mode as its argument.
func TestMain(m *testing.M) {
	if os.Getenv("GOMOCUP_FAKE") == "1" {
		fake(os.Args[1])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fake plays the piskvork protocol in mode:
//   - row: the first free cell of the odd rows, row by row (wins in five
//     moves against sparse);
//   - sparse: the first free cell with both coordinates even (never five);
//   - mute: never answers a move request;
//   - offboard: plays -1,-1;
//   - crash: exits when asked for a move;
//   - oracle: plays as row does and, after a BOARD, prints an evaluation
//     for the side to move of 100 for each of its stones on an odd row,
//     less 100 for each of the opponent's, plus 50.
//
// It checks that BOARD gives a position where it is to move, and answers
// ERROR otherwise.
func fake(mode string) {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	size := 0
	var cells map[engine.Point]bool
	say := func(s string) { fmt.Fprintln(out, s); out.Flush() }
	eval := 0
	play := func() {
		switch mode {
		case "oracle":
			say(fmt.Sprintf("MESSAGE Depth 1-1 | Eval %d | Time 0ms", eval))
			mode = "row"
			defer func() { mode = "oracle" }()
		case "mute":
			return
		case "crash":
			out.Flush()
			os.Exit(3)
		case "offboard":
			say("-1,-1")
			return
		}
		say("MESSAGE thinking")
		for y := range size {
			for x := range size {
				p := engine.Point{X: x, Y: y}
				ok := mode == "row" && y%2 == 1 || mode == "sparse" && x%2 == 0 && y%2 == 0
				if ok && !cells[p] {
					cells[p] = true
					say(fmt.Sprintf("%d,%d", x, y))
					return
				}
			}
		}
		say("ERROR no cell left")
	}
	for in.Scan() {
		w := strings.Fields(in.Text())
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "START":
			fmt.Sscan(w[1], &size)
			cells = map[engine.Point]bool{}
			say("OK")
		case "BEGIN":
			play()
		case "TURN":
			var p engine.Point
			fmt.Sscanf(w[1], "%d,%d", &p.X, &p.Y)
			cells[p] = true
			play()
		case "BOARD":
			n := [3]int{}
			eval = 50
			for in.Scan() && in.Text() != "DONE" {
				var p engine.Point
				var f int
				fmt.Sscanf(in.Text(), "%d,%d,%d", &p.X, &p.Y, &f)
				cells[p] = true
				n[f]++
				if p.Y%2 == 1 {
					eval += 300 - 200*f // +100 for own stones (1), -100 for the opponent's (2)
				}
			}
			if n[1] != n[2] && n[2] != n[1]+1 {
				say("ERROR not my move")
				continue
			}
			play()
		case "END":
			return
		}
	}
}

// fakeConfig is a fast match between two fake engines.
func fakeConfig(mode1, mode2 string, pairs int) config {
	return config{
		engines: [2][]string{{os.Args[0], mode1}, {os.Args[0], mode2}},
		names:   [2]string{mode1 + "#1", mode2 + "#2"},
		// Under -race a process sleeps a second at exit unless told not to.
		env:  []string{"GOMOCUP_FAKE=1", "GORACE=atexit_sleep_ms=0"},
		size: 15, turn: time.Second, guard: 20 * time.Second,
		pairs: pairs, stones: 3, radius: 3, seed: 7, workers: 2,
	}
}

func TestRowBeatsSparseWithEitherColour(t *testing.T) {
	c := fakeConfig("row", "sparse", 3)
	res, err := c.run()
	if err != nil {
		t.Fatal(err)
	}
	if res.tally != (tally{wins: 6}) {
		t.Fatalf("tally %+v, want 6 wins", res.tally)
	}
	for i, g := range res.games {
		if g.index != i || g.black != i%2 || g.reason != "five" {
			t.Errorf("game %d: index %d, black %d, reason %q; want black %d by five", i, g.index, g.black, g.reason, i%2)
		}
		if len(g.opening) != 3 {
			t.Errorf("game %d: opening %v, want 3 stones", i, g.opening)
		}
		for _, p := range g.opening {
			if p.X < 4 || p.X > 10 || p.Y < 4 || p.Y > 10 {
				t.Errorf("game %d: opening stone %v outside the centre region", i, p)
			}
		}
		if i%2 == 1 && fmt.Sprint(g.opening) != fmt.Sprint(res.games[i-1].opening) {
			t.Errorf("games %d and %d: openings %v and %v, want the same", i-1, i, res.games[i-1].opening, g.opening)
		}
	}
	if fmt.Sprint(res.games[0].opening) == fmt.Sprint(res.games[2].opening) {
		t.Errorf("pairs 1 and 2 share the opening %v", res.games[0].opening)
	}
}

func TestOpeningsReplayFromTheSeed(t *testing.T) {
	a, b := fakeConfig("row", "row", 1), fakeConfig("row", "row", 1)
	if fmt.Sprint(a.opening(5)) != fmt.Sprint(b.opening(5)) {
		t.Fatal("the same seed gave different openings")
	}
	b.seed++
	if fmt.Sprint(a.opening(5)) == fmt.Sprint(b.opening(5)) {
		t.Fatal("another seed gave the same opening")
	}
}

func TestFaultyEngineLosesAndIsNamed(t *testing.T) {
	for _, tc := range []struct{ mode, want string }{
		{"mute", "wall-clock guard"},
		{"offboard", "played -1,-1"},
		{"crash", "exited"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c := fakeConfig("sparse", tc.mode, 1)
			c.turn, c.guard = 10*time.Millisecond, 100*time.Millisecond
			res, err := c.run()
			if err != nil {
				t.Fatal(err)
			}
			if res.tally != (tally{wins: 2}) {
				t.Fatalf("tally %+v, want 2 wins for the sound engine", res.tally)
			}
			for _, g := range res.games {
				if !strings.Contains(g.reason, tc.mode+"#2") || !strings.Contains(g.reason, tc.want) {
					t.Errorf("game %d: reason %q, want it to name %s#2 and say %q", g.index, g.reason, tc.mode, tc.want)
				}
			}
		})
	}
}

func TestSPRTStopsALopsidedMatch(t *testing.T) {
	c := fakeConfig("row", "sparse", 50)
	c.workers = 1
	c.sprt = &sprt{elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05}
	res, err := c.run()
	if err != nil {
		t.Fatal(err)
	}
	if res.verdict != "H1" || res.tally.games() >= 100 || res.tally.games()%2 != 0 {
		t.Fatalf("verdict %q after %d games, want H1 after a few pairs", res.verdict, res.tally.games())
	}
}

func TestBoardLinesMarkOwnStones(t *testing.T) {
	b, err := engine.Replay(engine.Rules{Width: 15, Height: 15, K: 5}, []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 6, Y: 8}})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(boardLines(b), " ")
	if want := "BOARD 7,7,2 8,8,1 6,8,2 DONE"; got != want {
		t.Fatalf("boardLines = %q, want %q", got, want)
	}
}

func TestStatistics(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.002 }
	lo, hi := tally{wins: 40, losses: 40, draws: 20}.wilson()
	if !near(lo, 0.404) || !near(hi, 0.596) {
		t.Errorf("wilson(50%% of 100) = [%.3f, %.3f], want [0.404, 0.596]", lo, hi)
	}
	if e := elo(0.75); math.Abs(e-190.85) > 0.1 {
		t.Errorf("elo(0.75) = %.2f, want 190.85", e)
	}
	if e := elo(0.5); e != 0 {
		t.Errorf("elo(0.5) = %v, want 0", e)
	}
	s := sprt{elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05}
	for _, tc := range []struct {
		t    tally
		want string
	}{
		{tally{wins: 10, losses: 10}, ""},
		{tally{wins: 600, losses: 400}, "H1"},
		{tally{wins: 400, losses: 600}, "H0"},
	} {
		if got := s.verdict(tc.t); got != tc.want {
			t.Errorf("sprt verdict %+v = %q (LLR %.2f), want %q", tc.t, got, s.llr(tc.t), tc.want)
		}
	}
}

func TestRunMainRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-e1", "a"},
		{"-e1", "a", "-e2", "b", "-rule", "2"},
		{"-e1", "a", "-e2", "b", "-sprt", "5,0"},
		{"-e1", "a", "-e2", "b", "-size", "30"},
		{"-e1", "a", "-e2", "b", "-regret", "-extend", "-1"},
		{"-e1", "a", "-e2", "b", "-regret", "-oracle-turn", "0s"},
	} {
		var out, log strings.Builder
		if err := runMain(args, &out, &log); err == nil || !strings.HasPrefix(err.Error(), "gomocup-match") {
			t.Errorf("runMain(%q) = %v, want a usage error", args, err)
		}
	}
}

func TestBookOpeningsArePlayedInOrderBothWays(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/book.txt"
	if err := os.WriteFile(name, []byte("# two openings\nh8i9j10\n\nh8h9h10g7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := fakeConfig("row", "sparse", 2)
	var err error
	if c.book, err = readBook(name, c.rules()); err != nil {
		t.Fatal(err)
	}
	res, err := c.run()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.games) != 4 {
		t.Fatalf("%d games, want 4", len(res.games))
	}
	want := []string{"[{7 7} {8 8} {9 9}]", "[{7 7} {7 8} {7 9} {6 6}]"}
	for i, g := range res.games {
		if got := fmt.Sprint(g.opening); got != want[i/2] {
			t.Errorf("game %d: opening %s, want %s", i, got, want[i/2])
		}
		if g.black != i%2 {
			t.Errorf("game %d: engine %d black, want %d", i, g.black, i%2)
		}
	}
}

func TestBadBooksAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "# nothing\n", "no opening"},
		{"notation", "h8 i9\n", "want a column letter"},
		{"row", "h8i\n", "want a row number"},
		{"zero", "h0\n", "rows count from 1"},
		{"offboard", "h8z9\n", "h8z9"},
		{"twice", "h8h8\n", "h8h8"},
		{"over", "a1b1a2b2a3b3a4b4a5\n", "over"},
	} {
		name := dir + "/" + tc.name
		if err := os.WriteFile(name, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readBook(name, engine.Rules{Width: 15, Height: 15, K: 5})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: readBook = %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	var out, log strings.Builder
	name := dir + "/one"
	if err := os.WriteFile(name, []byte("h8i9j10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runMain([]string{"-e1", "a", "-e2", "b", "-openings", name, "-games", "4"}, &out, &log)
	if err == nil || !strings.Contains(err.Error(), "holds 1 openings, fewer than the 2") {
		t.Errorf("a book too short for -games: %v, want it refused", err)
	}
}

func TestCommittedBooksAreSound(t *testing.T) {
	for name, rule := range map[string]int{"freestyle": 0, "renju": 4} {
		c := config{size: 15, rule: rule}
		book, err := readBook("openings/"+name+".txt", c.rules())
		if err != nil {
			t.Fatal(err)
		}
		if len(book) != 100 {
			t.Errorf("%s: %d openings, want 100", name, len(book))
		}
	}
}

func TestSummaryGivesMoveTimesAndColours(t *testing.T) {
	c := fakeConfig("row", "sparse", 1)
	ms := func(n ...int) []time.Duration {
		var ts []time.Duration
		for _, v := range n {
			ts = append(ts, time.Duration(v)*time.Millisecond)
		}
		return ts
	}
	res := result{tally: tally{wins: 2, losses: 1}, games: []game{
		{black: 0, winner: 0, reason: "five", times: [2][]time.Duration{ms(100, 200), ms(10)}},
		{black: 1, winner: 1, reason: "five", times: [2][]time.Duration{ms(600), ms(30, 20)}},
		{black: 1, winner: 0, reason: "five"},
	}}
	var out strings.Builder
	summary(&out, c, res)
	for _, want := range []string{
		"row#1: 3 moves, time mean 300ms p50 200ms p99 600ms max 600ms; games forfeited 0",
		"sparse#2: 3 moves, time mean 20ms p50 20ms p99 30ms max 30ms; games forfeited 0",
		"row#1 as Black: +1 -0 =0; as White: +1 -1 =0",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary:\n%s\nwant a line %q", out.String(), want)
		}
	}
}

// regretConfigOf is a fast regret run of the fake engine mode judged by
// the fake oracle.
func regretConfigOf(mode, oracle string, openings int) *regretConfig {
	c := fakeConfig(mode, oracle, openings)
	return &regretConfig{config: c, oracle: c.engines[1], oracleTurn: time.Second, extend: 1, openings: openings}
}

func TestRegretJudgesMovesByTheOracle(t *testing.T) {
	var out, log strings.Builder
	// sparse plays on even rows, where the oracle sees nothing: each of
	// its moves leaves the oracle's 100 for an odd-row stone on the table.
	if err := runRegret(regretConfigOf("sparse", "oracle", 3), "", &out, &log); err != nil {
		t.Fatal(err)
	}
	if want := "sparse#1: 6 positions, the oracle's move in 0 (0.0%), mean regret 100.0 [95% 100.0, 100.0], regret of 100 or more in 6"; !strings.Contains(out.String(), want) {
		t.Errorf("summary:\n%s\nwant the line %q", out.String(), want)
	}
	if n := strings.Count(log.String(), ": regret 100\n"); n != 6 {
		t.Errorf("log holds %d positions of regret 100, want 6:\n%s", n, log.String())
	}
	out.Reset()
	// row plays the oracle's own moves.
	if err := runRegret(regretConfigOf("row", "oracle", 3), "", &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if want := "row#1: 6 positions, the oracle's move in 6 (100.0%), mean regret 0.0"; !strings.Contains(out.String(), want) {
		t.Errorf("summary:\n%s\nwant the line %q", out.String(), want)
	}
}

func TestRegretCacheKeepsTheOraclesJudgements(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "oracle.json")
	var first, second strings.Builder
	if err := runRegret(regretConfigOf("sparse", "oracle", 2), cache, &first, io.Discard); err != nil {
		t.Fatal(err)
	}
	// A second run with an oracle that never answers only reads the cache.
	c := regretConfigOf("sparse", "mute", 2)
	c.guard = 100 * time.Millisecond
	if err := runRegret(c, cache, &second, io.Discard); err != nil {
		t.Fatalf("second run asked the oracle: %v", err)
	}
	line := func(s string) string { return strings.SplitN(s, "\n", 3)[1] }
	if a, b := line(first.String()), line(second.String()); a != b {
		t.Errorf("cached run differs:\n%s\n%s", a, b)
	}
	// Without the cache the silent oracle is a fault.
	c = regretConfigOf("sparse", "mute", 1)
	c.guard = 100 * time.Millisecond
	if err := runRegret(c, "", io.Discard, io.Discard); !errors.Is(err, errFault) {
		t.Error("a silent oracle was not reported")
	}
}

func TestParseEval(t *testing.T) {
	for line, want := range map[string]int{
		"MESSAGE Depth 7-12 | Eval 35 | Time 3ms":  35,
		"MESSAGE Depth 7-12 | Eval -120 | Node 9K": -120,
		"MESSAGE Depth 9-9 | Eval +M9 | Time 1ms":  oracleCap,
		"MESSAGE Depth 9-9 | Eval -M4 | Time 1ms":  -oracleCap,
		"MESSAGE Speed 1M | Eval +M*":              oracleCap,
		"MESSAGE Eval 5000":                        oracleCap,
	} {
		if v, ok := parseEval(line); !ok || v != want {
			t.Errorf("parseEval(%q) = %d, %v; want %d", line, v, ok, want)
		}
	}
	for _, line := range []string{"MESSAGE thinking", "MESSAGE Eval", "MESSAGE Eval x12"} {
		if _, ok := parseEval(line); ok {
			t.Errorf("parseEval(%q) found an evaluation", line)
		}
	}
}
