// Command gomocup-match plays two Gomocup (piskvork protocol) engines
// against each other and reports the score with its 95 % interval, for
// measuring changes to the engine: every game starts fresh processes from
// a seeded random opening, and every opening is played twice with the
// colours swapped.
//
//	gomocup-match -e1 /tmp/pbrain-new -e2 /tmp/pbrain-old -turn 500ms -games 200
//	gomocup-match -e1 '/tmp/pbrain -nodes 20000' -e2 '/tmp/pbrain-old -nodes 20000' -sprt 0,20 -games 1000 -workers 2
//
// An engine that crashes, answers ERROR, plays an illegal move or takes
// longer than the turn time plus the guard loses the game, and the record
// says which engine and why.
//
// With -regret it plays no games: it asks the first engine for its move
// in each opening (and in the positions a few of the second engine's own
// moves later), and the second engine, an oracle that prints its
// evaluation as Rapfi does, judges each move by how much worse it values
// the position after it than after its own choice:
//
//	gomocup-match -regret -e1 /tmp/pbrain -e2 ./pbrain-rapfi -openings openings/freestyle.txt -cache rapfi.json -workers 2
//
// With -label it plays no games either: the oracle evaluates positions
// sampled from the games of a match log, for fitting the engine's leaf
// values to its judgement (engine/fit_test.go):
//
//	gomocup-match -label games.log -e2 ./pbrain-rapfi -oracle-turn 100ms -cache labels.json -workers 2
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := runMain(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// errUsage is a bad command line.
var errUsage = errors.New("gomocup-match: usage")

// runMain parses args, plays the match, prints the games to log (one line
// each) and the summary to out.
func runMain(args []string, out, log io.Writer) error {
	fs := flag.NewFlagSet("gomocup-match", flag.ContinueOnError)
	fs.SetOutput(log)
	e1 := fs.String("e1", "", "first engine: program and arguments, space-separated (the scores are its)")
	e2 := fs.String("e2", "", "second engine: program and arguments, space-separated")
	n1 := fs.String("name1", "", "first engine's label (default: its program's name)")
	n2 := fs.String("name2", "", "second engine's label")
	size := fs.Int("size", 15, "board size")
	rule := fs.Int("rule", 0, "INFO rule: 0 freestyle, 1 exact five, 4 renju")
	turn := fs.Duration("turn", 500*time.Millisecond, "time per move (INFO timeout_turn)")
	guard := fs.Duration("guard", 0, "wall-clock grace past -turn before a move is forfeited (default: turn/2 + 1s)")
	games := fs.Int("games", 100, "games to play (rounded up to an even number: each opening twice)")
	stones := fs.Int("stones", 3, "stones of each random opening")
	radius := fs.Int("radius", 3, "opening stones lie within this distance of the centre")
	seed := fs.Uint64("seed", 1, "seed of the openings")
	book := fs.String("openings", "", "file of openings, one a line (h8i9j10: column letter, row from 1), played in order instead of random ones")
	workers := fs.Int("workers", 1, "games played at once (only for node-bounded engines on a loaded machine)")
	sprtArg := fs.String("sprt", "", "elo0,elo1: stop early when an SPRT (alpha = beta = 0.05) decides")
	regret := fs.Bool("regret", false, "judge the first engine's moves by the second's evaluation (the oracle, e.g. Rapfi) instead of playing games; -games openings")
	oracleTurn := fs.Duration("oracle-turn", time.Second, "with -regret: the oracle's time a position")
	extend := fs.Int("extend", 2, "with -regret: also judge the positions after 2, 4, … 2·extend of the oracle's own plies from each opening")
	cacheName := fs.String("cache", "", "with -regret: file keeping the oracle's judgements between runs, so that engines are judged on the same values; with -label: the file the evaluations go to")
	label := fs.String("label", "", "evaluate positions from the games of this match log (gomocup-match's stderr) with the second engine (the oracle) at -oracle-turn, into -cache, instead of playing games; -e1 is not needed")
	perGame := fs.Int("per", 12, "with -label: positions sampled from each game")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	c := config{size: *size, rule: *rule, turn: *turn, guard: *guard, pairs: (*games + 1) / 2, stones: *stones, radius: *radius, seed: *seed, workers: *workers}
	if *regret {
		c.pairs = *games
	}
	for i, e := range []string{*e1, *e2} {
		c.engines[i] = strings.Fields(e)
		if len(c.engines[i]) == 0 {
			if i == 0 && *label != "" {
				continue
			}
			return fmt.Errorf("%w: -e1 and -e2 name the engines", errUsage)
		}
		c.names[i] = filepath.Base(c.engines[i][0])
	}
	if *n1 != "" {
		c.names[0] = *n1
	}
	if *n2 != "" {
		c.names[1] = *n2
	}
	if c.names[0] == c.names[1] {
		c.names[0], c.names[1] = c.names[0]+"#1", c.names[1]+"#2"
	}
	switch {
	case c.rule != 0 && c.rule != 1 && c.rule != 4:
		return fmt.Errorf("%w: -rule %d: want 0, 1 or 4", errUsage, c.rule)
	case c.size < 5 || c.size > 19:
		return fmt.Errorf("%w: -size %d: want 5 to 19", errUsage, c.size)
	case c.radius < 0 || (2*c.radius+1)*(2*c.radius+1) <= c.stones || c.radius > c.size/2:
		return fmt.Errorf("%w: -radius %d cannot hold %d stones on %d×%d", errUsage, c.radius, c.stones, c.size, c.size)
	case c.turn <= 0 || c.pairs <= 0:
		return fmt.Errorf("%w: -turn and -games must be positive", errUsage)
	case (*regret || *label != "") && (*oracleTurn <= 0 || *extend < 0):
		return fmt.Errorf("%w: -oracle-turn must be positive and -extend not negative", errUsage)
	case *label != "" && (*cacheName == "" || *perGame <= 0 || *regret):
		return fmt.Errorf("%w: -label needs -cache and a positive -per, and no -regret", errUsage)
	}
	if *book != "" {
		var err error
		if c.book, err = readBook(*book, c.rules()); err != nil {
			return fmt.Errorf("%w: -openings: %v", errUsage, err)
		}
		if len(c.book) < c.pairs {
			return fmt.Errorf("%w: -openings %s holds %d openings, fewer than the %d that -games %d plays", errUsage, *book, len(c.book), c.pairs, *games)
		}
		c.bookName = filepath.Base(*book)
	}
	if c.guard <= 0 {
		c.guard = c.turn/2 + time.Second
	}
	if *sprtArg != "" {
		a, b, ok := strings.Cut(*sprtArg, ",")
		x, errA := strconv.ParseFloat(a, 64)
		y, errB := strconv.ParseFloat(b, 64)
		if !ok || errA != nil || errB != nil || x >= y {
			return fmt.Errorf("%w: -sprt %q: want elo0,elo1 with elo0 < elo1", errUsage, *sprtArg)
		}
		c.sprt = &sprt{elo0: x, elo1: y, alpha: 0.05, beta: 0.05}
	}
	if *label != "" {
		return runLabel(&regretConfig{config: c, oracle: c.engines[1], oracleTurn: *oracleTurn}, *label, *cacheName, *perGame, out)
	}
	if *regret {
		return runRegret(&regretConfig{config: c, oracle: c.engines[1], oracleTurn: *oracleTurn, extend: *extend, openings: c.pairs}, *cacheName, out, log)
	}
	c.progress = func(g, sofar string) { fmt.Fprintf(log, "%s\n  %s: %s\n", g, c.names[0], sofar) }
	res, err := c.run()
	summary(out, c, res)
	return err
}

// summary prints the match result and each engine's move times.
func summary(out io.Writer, c config, res result) {
	from := fmt.Sprintf("openings of %d stones (seed %d)", c.stones, c.seed)
	if c.book != nil {
		from = "openings from " + c.bookName
	}
	fmt.Fprintf(out, "%s vs %s, %d×%d rule %d, %v a move, %s\n",
		c.names[0], c.names[1], c.size, c.size, c.rule, c.turn, from)
	fmt.Fprintf(out, "%s: %v\n", c.names[0], res.tally)
	if c.sprt != nil {
		lo, hi := c.sprt.bounds()
		v := res.verdict
		if v == "" {
			v = "undecided"
		}
		fmt.Fprintf(out, "SPRT elo0=%g elo1=%g: LLR %.2f [%.2f, %.2f]: %s\n", c.sprt.elo0, c.sprt.elo1, c.sprt.llr(res.tally), lo, hi, v)
	}
	// The first engine's result with each colour: in many openings one
	// side is far ahead, and the colour split shows it.
	var byColour [2]tally // [0]: as Black, [1]: as White
	for _, g := range res.games {
		byColour[g.black].add(g.winner)
	}
	b, w := byColour[0], byColour[1]
	fmt.Fprintf(out, "%s as Black: +%d -%d =%d; as White: +%d -%d =%d\n", c.names[0], b.wins, b.losses, b.draws, w.wins, w.losses, w.draws)
	faults := [2]int{}
	for _, g := range res.games {
		if g.reason != "five" && g.reason != "board full" {
			faults[1-g.winner]++
		}
	}
	for e := range 2 {
		var ts []time.Duration
		for _, g := range res.games {
			ts = append(ts, g.times[e]...)
		}
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		at := func(q float64) time.Duration {
			return ts[min(len(ts)-1, int(q*float64(len(ts))))].Round(time.Millisecond)
		}
		var sum time.Duration
		for _, t := range ts {
			sum += t
		}
		mean := (sum / time.Duration(len(ts))).Round(time.Millisecond)
		fmt.Fprintf(out, "%s: %d moves, time mean %v p50 %v p99 %v max %v; games forfeited %d\n", c.names[e], len(ts), mean, at(0.5), at(0.99), ts[len(ts)-1].Round(time.Millisecond), faults[e])
	}
}
