package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// Regret mode (-regret): instead of playing games, the first engine is
// asked for its move in a set of positions, and a stronger engine (the
// oracle, such as Rapfi) judges each move by its own evaluation: the
// regret of a move is how much worse the oracle values the position after
// it than after the oracle's own choice. It measures an engine against a
// target in minutes where a match takes an hour, and with the oracle's
// answers cached, every engine is judged on the same values.

// oracleCap bounds the oracle's evaluations: a forced win or loss it
// reports (+M9, -M4) counts as ±oracleCap, and so does any value beyond.
const oracleCap = 1000

// judgement is the oracle's answer in one position: its evaluation for
// the side to move and its move.
type judgement struct {
	Eval int          `json:"eval"`
	Move engine.Point `json:"move"`
}

// judged is one judged position.
type judged struct {
	opening, plies int // the opening's index, and the oracle's plies played after it
	engine, oracle engine.Point
	eval           int // the oracle's evaluation before the engine's move
	regret         int
}

// regretConfig is one regret run.
type regretConfig struct {
	config
	oracle     []string      // the oracle's argv
	oracleTurn time.Duration // the oracle's time a position
	extend     int           // also judge the positions after 2, 4, … 2·extend of the oracle's plies
	openings   int

	mu    sync.Mutex
	cache map[string]judgement // by position key
}

// positionKey names a position by its moves.
func positionKey(b *engine.Board) string {
	var sb strings.Builder
	for _, p := range b.Moves() {
		fmt.Fprintf(&sb, "%d,%d ", p.X, p.Y)
	}
	return strings.TrimSpace(sb.String())
}

// ask starts argv on position b under the run's rules and returns its
// move and, when it prints them (as Rapfi's "MESSAGE ... | Eval 35 | ..."
// lines), its last evaluation. hasEval reports whether it printed one.
func (c *regretConfig) ask(name string, argv []string, turn time.Duration, b *engine.Board) (m engine.Point, eval int, hasEval bool, err error) {
	p, err := startProc(name, argv, c.env)
	if err != nil {
		return m, 0, false, err
	}
	defer p.stop(time.Second)
	p.keep = true
	if err := c.setup(p, turn); err != nil {
		return m, 0, false, err
	}
	if err := p.send(boardLines(b)...); err != nil {
		return m, 0, false, err
	}
	m, err = p.move(turn+c.guard, "BOARD")
	if err != nil {
		return m, 0, false, err
	}
	for _, l := range p.messages {
		if v, ok := parseEval(l); ok {
			eval, hasEval = v, true
		}
	}
	return m, eval, hasEval, nil
}

// parseEval reads the evaluation of a Rapfi-style MESSAGE line ("... |
// Eval -35 | ..."), capped at ±oracleCap; forced results (+M9, -M4,
// +M*) count as the cap.
func parseEval(line string) (int, bool) {
	_, rest, ok := strings.Cut(line, "Eval ")
	if !ok {
		return 0, false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return 0, false
	}
	switch s := f[0]; {
	case strings.HasPrefix(s, "+M"):
		return oracleCap, true
	case strings.HasPrefix(s, "-M"):
		return -oracleCap, true
	default:
		v, err := strconv.Atoi(s)
		if err != nil {
			return 0, false
		}
		return max(-oracleCap, min(oracleCap, v)), true
	}
}

// judge returns the oracle's judgement of b, from the cache when it holds
// one.
func (c *regretConfig) judge(b *engine.Board) (judgement, error) {
	key := positionKey(b)
	c.mu.Lock()
	j, ok := c.cache[key]
	c.mu.Unlock()
	if ok {
		return j, nil
	}
	m, eval, hasEval, err := c.ask("oracle", c.oracle, c.oracleTurn, b)
	if err != nil {
		return j, err
	}
	if !hasEval {
		return j, fmt.Errorf("%w: the oracle printed no evaluation (a MESSAGE line with \"Eval N\") for %s", errFault, key)
	}
	j = judgement{Eval: eval, Move: m}
	c.mu.Lock()
	c.cache[key] = j
	c.mu.Unlock()
	return j, nil
}

// position judges the engine's move in b.
func (c *regretConfig) position(b *engine.Board) (judged, error) {
	before, err := c.judge(b)
	if err != nil {
		return judged{}, err
	}
	m, _, _, err := c.ask(c.names[0], c.engines[0], c.turn, b)
	if err != nil {
		return judged{}, err
	}
	v := judged{engine: m, oracle: before.Move, eval: before.Eval}
	if m == before.Move {
		return v, nil
	}
	after, err := engine.Replay(c.rules(), append(b.Moves(), m))
	if err != nil {
		return v, fmt.Errorf("%w: %s played %d,%d: %v", errFault, c.names[0], m.X, m.Y, err)
	}
	if after.Over() {
		// A five (or a full board): nothing the oracle could do better.
		return v, nil
	}
	j, err := c.judge(after)
	if err != nil {
		return v, err
	}
	v.regret = max(0, before.Eval+j.Eval)
	return v, nil
}

// opening judges the engine in opening i and in the positions after
// 2, 4, … 2·extend of the oracle's own plies from it.
func (c *regretConfig) opening(i int) ([]judged, error) {
	b, err := engine.Replay(c.rules(), c.config.opening(i))
	if err != nil {
		return nil, err
	}
	var vs []judged
	for plies := 0; plies <= 2*c.extend && !b.Over(); plies++ {
		if plies%2 == 0 {
			v, err := c.position(b)
			if err != nil {
				return vs, err
			}
			v.opening, v.plies = i, plies
			vs = append(vs, v)
		}
		j, err := c.judge(b)
		if err != nil {
			return vs, err
		}
		if err := b.Play(j.Move); err != nil {
			return vs, fmt.Errorf("%w: the oracle played %d,%d: %v", errFault, j.Move.X, j.Move.Y, err)
		}
	}
	return vs, nil
}

// run judges every opening, c.workers at a time, and returns the judged
// positions in order.
func (c *regretConfig) run(log io.Writer) ([]judged, error) {
	per := make([][]judged, c.openings)
	errs := make([]error, c.openings)
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, c.workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				per[i], errs[i] = c.opening(i)
				c.mu.Lock()
				for _, v := range per[i] {
					fmt.Fprintf(log, "opening %d +%d: %s %d,%d, oracle %d,%d (eval %d): regret %d\n",
						v.opening+1, v.plies, c.names[0], v.engine.X, v.engine.Y, v.oracle.X, v.oracle.Y, v.eval, v.regret)
				}
				c.mu.Unlock()
			}
		}()
	}
	for i := range c.openings {
		next <- i
	}
	close(next)
	wg.Wait()
	var all []judged
	for _, vs := range per {
		all = append(all, vs...)
	}
	return all, errors.Join(errs...)
}

// loadCache reads the oracle's cached judgements from name, if it exists.
func (c *regretConfig) loadCache(name string) error {
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(data, &c.cache)
}

// saveCache writes the oracle's judgements to name.
func (c *regretConfig) saveCache(name string) error {
	c.mu.Lock()
	data, err := json.Marshal(c.cache)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// regretSummary prints the agreement with the oracle and the mean regret
// with its 95 % interval.
func regretSummary(out io.Writer, c *regretConfig, vs []judged) {
	from := fmt.Sprintf("openings of %d stones (seed %d)", c.stones, c.seed)
	if c.book != nil {
		from = "openings from " + c.bookName
	}
	fmt.Fprintf(out, "%s judged by %s, %d×%d rule %d, %v a move (oracle %v), %d %s, extended by %d oracle move pairs\n",
		c.names[0], c.names[1], c.size, c.size, c.rule, c.turn, c.oracleTurn, c.openings, from, c.extend)
	n := len(vs)
	if n == 0 {
		fmt.Fprintln(out, "no positions judged")
		return
	}
	agree, big := 0, 0
	var sum, sq float64
	for _, v := range vs {
		if v.engine == v.oracle {
			agree++
		}
		if v.regret >= 100 {
			big++
		}
		r := float64(v.regret)
		sum += r
		sq += r * r
	}
	mean := sum / float64(n)
	half := 0.0
	if n > 1 {
		half = 1.96 * math.Sqrt((sq-sum*mean)/float64(n-1)/float64(n))
	}
	fmt.Fprintf(out, "%s: %d positions, the oracle's move in %d (%.1f%%), mean regret %.1f [95%% %.1f, %.1f], regret of 100 or more in %d\n",
		c.names[0], n, agree, 100*float64(agree)/float64(n), mean, mean-half, mean+half, big)
}

// runRegret judges the engine with c, keeping the oracle's judgements in
// the file cacheName when it is not empty, and prints the summary to out.
func runRegret(c *regretConfig, cacheName string, out, log io.Writer) error {
	c.cache = map[string]judgement{}
	if cacheName != "" {
		if err := c.loadCache(cacheName); err != nil {
			return fmt.Errorf("gomocup-match: -cache: %w", err)
		}
	}
	vs, err := c.run(log)
	if cacheName != "" {
		err = errors.Join(err, c.saveCache(cacheName))
	}
	regretSummary(out, c, vs)
	return err
}
