package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"

	"github.com/boardbot/boardbot/engine"
)

// Label mode (-label): positions sampled from the games of a match log are
// evaluated by the second engine (the oracle, such as Rapfi), and the
// evaluations are kept in the -cache file, the same file -regret keeps its
// judgements in. The engine's leaf values are fitted to such files (see
// TestFitThreatValues in engine/fit_test.go and docs/engine.md).

// Sampling: from each game, up to perGame positions after labelFrom to
// labelTo plies, none of the last labelEnd plies before the game's end
// (mostly decided already).
const (
	labelFrom = 3
	labelTo   = 29
	labelEnd  = 3
)

// sampleGames reads a match log (the "game N: …; x,y x,y …" lines that
// gomocup-match writes) and returns up to perGame positions of each game
// as move lists, drawn with a source seeded by seed, each position once.
func sampleGames(r io.Reader, perGame int, seed uint64) ([][]engine.Point, error) {
	rng := rand.New(rand.NewPCG(seed, 40))
	seen := map[string]bool{}
	var out [][]engine.Point
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "game ") {
			continue
		}
		_, rec, ok := strings.Cut(line, "; ")
		if !ok {
			continue
		}
		moves, err := engine.ParseMoves(rec)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", line, err)
		}
		var plies []int
		for n := labelFrom; n <= min(labelTo, len(moves)-labelEnd); n++ {
			plies = append(plies, n)
		}
		rng.Shuffle(len(plies), func(i, j int) { plies[i], plies[j] = plies[j], plies[i] })
		for _, n := range plies[:min(perGame, len(plies))] {
			key := fmt.Sprint(moves[:n])
			if !seen[key] {
				seen[key] = true
				out = append(out, moves[:n])
			}
		}
	}
	return out, sc.Err()
}

// labelSaveEvery is how many new evaluations are kept in memory at most
// before the cache file is written again.
const labelSaveEvery = 1000

// runLabel samples perGame positions a game from the match log logName,
// has the oracle evaluate those the cache file cacheName does not hold yet,
// c.workers at a time, and writes them all to the cache.
func runLabel(c *regretConfig, logName, cacheName string, perGame int, out io.Writer) error {
	f, err := os.Open(logName)
	if err != nil {
		return fmt.Errorf("gomocup-match: -label: %w", err)
	}
	positions, err := sampleGames(f, perGame, c.seed)
	f.Close()
	if err != nil {
		return fmt.Errorf("gomocup-match: -label %s: %w", logName, err)
	}
	c.cache = map[string]judgement{}
	if err := c.loadCache(cacheName); err != nil {
		return fmt.Errorf("gomocup-match: -cache: %w", err)
	}
	cached := 0
	var todo []*engine.Board
	for _, ms := range positions {
		b, err := engine.Replay(c.rules(), ms)
		if err != nil {
			return fmt.Errorf("gomocup-match: -label %s: a game is not legal under rule %d: %w", logName, c.rule, err)
		}
		if _, ok := c.cache[positionKey(b)]; ok {
			cached++
		} else {
			todo = append(todo, b)
		}
	}
	next := make(chan *engine.Board)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		errs   []error
		judged int
	)
	for range max(1, c.workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				mu.Lock()
				failed := len(errs) > 0
				mu.Unlock()
				if failed {
					continue // after a fault, only drain
				}
				_, err := c.judge(b)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else if judged++; judged%labelSaveEvery == 0 {
					if err := c.saveCache(cacheName); err != nil {
						errs = append(errs, err)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, b := range todo {
		next <- b
	}
	close(next)
	wg.Wait()
	err = errors.Join(append(errs, c.saveCache(cacheName))...)
	fmt.Fprintf(out, "%d positions from %s under rule %d: %d evaluated by %s (%v each), %d already in %s\n",
		len(positions), logName, c.rule, judged, c.names[1], c.oracleTurn, cached, cacheName)
	return err
}
