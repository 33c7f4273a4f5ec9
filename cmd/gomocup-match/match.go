package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// config is one match.
type config struct {
	engines  [2][]string // argv of each engine
	names    [2]string
	env      []string // added to both engines' environment
	size     int
	rule     int // INFO rule: 0 freestyle, 1 exact five, 4 renju
	turn     time.Duration
	guard    time.Duration // added to turn before a move is a fault
	pairs    int           // openings; each is played twice, colours swapped
	stones   int           // stones of a random opening
	radius   int           // opening stones lie within radius of the centre
	seed     uint64
	book     [][]engine.Point // openings read from a file; random ones when nil
	bookName string           // the file's name, for the summary
	workers  int
	sprt     *sprt
	progress func(game, sofar string) // called after every game
}

// rules returns the engine rules of the match.
func (c config) rules() engine.Rules {
	return engine.Rules{Width: c.size, Height: c.size, K: 5, Exact: c.rule&1 != 0 && c.rule&4 == 0, Renju: c.rule&4 != 0}
}

// opening returns the stones of opening i, black first: the book's i-th
// when there is a book, else c.stones distinct cells within c.radius of
// the centre drawn from a source seeded by the match seed and i, so that
// a match replays.
func (c config) opening(i int) []engine.Point {
	if c.book != nil {
		return c.book[i]
	}
	rng := rand.New(rand.NewPCG(c.seed, uint64(i)))
	for {
		b, _ := engine.NewBoard(c.rules())
		mid, r := c.size/2, c.radius
		for b.MoveCount() < c.stones && !b.Over() {
			p := engine.Point{X: mid - r + rng.IntN(2*r+1), Y: mid - r + rng.IntN(2*r+1)}
			_ = b.Play(p) // occupied or a foul: draw again
		}
		if !b.Over() {
			return b.Moves()
		}
	}
}

// game is one finished game.
type game struct {
	index   int
	opening []engine.Point
	moves   []engine.Point // after the opening
	black   int            // engine index playing Black
	winner  int            // engine index, or -1 for a draw
	reason  string
	times   [2][]time.Duration // move times of each engine
}

// String returns a one-line record of g.
func (g game) String(names [2]string) string {
	res := "draw"
	if g.winner >= 0 {
		res = names[g.winner] + " wins"
	}
	var sb strings.Builder
	for i, p := range append(slices.Clone(g.opening), g.moves...) {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%d,%d", p.X, p.Y)
	}
	return fmt.Sprintf("game %d: %s black, %s white: %s (%s); %s", g.index+1, names[g.black], names[1-g.black], res, g.reason, sb.String())
}

// playGame plays game index with fresh engine processes: engine black
// plays Black from the opening.
func (c config) playGame(index, black int, opening []engine.Point) (game, error) {
	g := game{index: index, opening: opening, black: black, winner: -1}
	b, err := engine.Replay(c.rules(), opening)
	if err != nil {
		return g, fmt.Errorf("gomocup-match: opening %v: %w", opening, err)
	}
	var ps [2]*proc
	for e := range 2 {
		p, err := startProc(c.names[e], c.engines[e], c.env)
		if err != nil {
			for _, q := range ps {
				if q != nil {
					q.stop(time.Second)
				}
			}
			return g, err
		}
		ps[e] = p
	}
	defer func() {
		for _, p := range ps {
			p.stop(time.Second)
		}
	}()
	for e, p := range ps {
		if err := c.setup(p, c.turn); err != nil {
			return c.forfeit(g, e, err), nil
		}
	}
	started := [2]bool{}
	for !b.Over() {
		e := black
		if b.ToMove() == engine.White {
			e = 1 - black
		}
		p := ps[e]
		var what string
		var err error
		switch {
		case !started[e] && b.MoveCount() == 0:
			what, err = "BEGIN", p.send("BEGIN")
		case !started[e]:
			what, err = "BOARD", p.send(boardLines(b)...)
		default:
			last, _ := b.LastMove()
			what = fmt.Sprintf("TURN %d,%d", last.X, last.Y)
			err = p.send(what)
		}
		started[e] = true
		t0 := time.Now()
		var m engine.Point
		if err == nil {
			m, err = p.move(c.turn+c.guard, fmt.Sprintf("%s (move %d)", what, b.MoveCount()+1))
		}
		g.times[e] = append(g.times[e], time.Since(t0))
		if err == nil {
			if perr := b.Play(m); perr != nil {
				err = fmt.Errorf("%w: %s played %d,%d at move %d: %v", errFault, p.name, m.X, m.Y, b.MoveCount()+1, perr)
			}
		}
		if err != nil {
			return c.forfeit(g, e, err), nil
		}
		g.moves = append(g.moves, m)
	}
	switch o := b.Outcome(); o.Status {
	case engine.Won:
		g.winner = black
		if o.Winner == engine.White {
			g.winner = 1 - black
		}
		g.reason = "five"
	default:
		g.reason = "board full"
	}
	return g, nil
}

// setup starts a game on engine p: START with the board size, which it
// must answer OK, then the match's settings, with turn as its time a move.
func (c config) setup(p *proc, turn time.Duration) error {
	if err := p.send(fmt.Sprintf("START %d", c.size)); err != nil {
		return err
	}
	ok, err := p.reply(10*time.Second+c.guard, "START")
	if err != nil {
		return err
	}
	if !strings.EqualFold(ok, "OK") {
		return fmt.Errorf("%w: %s answered START with %q", errFault, p.name, ok)
	}
	return p.send(fmt.Sprintf("INFO timeout_turn %d", turn.Milliseconds()),
		"INFO timeout_match 0", "INFO time_left 2147483647", "INFO game_type 1",
		fmt.Sprintf("INFO rule %d", c.rule))
}

// forfeit ends g as a loss of engine e for err.
func (c config) forfeit(g game, e int, err error) game {
	g.winner = 1 - e
	g.reason = err.Error()
	return g
}

// boardLines is the BOARD command giving the position of b to the side to
// move, stones in the order they were played.
func boardLines(b *engine.Board) []string {
	ls := []string{"BOARD"}
	me := b.ToMove()
	for i, p := range b.Moves() {
		f := 2
		if (i%2 == 0) == (me == engine.Black) {
			f = 1
		}
		ls = append(ls, fmt.Sprintf("%d,%d,%d", p.X, p.Y, f))
	}
	return append(ls, "DONE")
}

// result is a finished match.
type result struct {
	tally   tally
	games   []game
	verdict string // the SPRT's, when one ran: "H0", "H1" or ""
}

// run plays the match: pairs of games on the same opening with colours
// swapped, c.workers games at a time, stopping early when the SPRT
// decides (after a whole pair).
func (c config) run() (result, error) {
	type job struct{ index, black int }
	jobs := make(chan job)
	var (
		mu     sync.Mutex
		res    result
		pairOf = map[int]int{} // games finished per pair
		stop   bool
		first  error
	)
	var wg sync.WaitGroup
	for range max(1, c.workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				mu.Lock()
				// After a stop, only the second games of begun pairs
				// are played, so that every opening counts both ways.
				skip := stop && (first != nil || j.index%2 == 0)
				mu.Unlock()
				if skip {
					continue
				}
				g, err := c.playGame(j.index, j.black, c.opening(j.index/2))
				mu.Lock()
				if err != nil {
					if first == nil {
						first = err
					}
					stop = true
					mu.Unlock()
					continue
				}
				res.games = append(res.games, g)
				res.tally.add(g.winner)
				pairOf[j.index/2]++
				if c.progress != nil {
					c.progress(g.String(c.names), res.tally.String())
				}
				if c.sprt != nil && pairOf[j.index/2] == 2 && res.verdict == "" {
					if v := c.sprt.verdict(res.tally); v != "" {
						res.verdict, stop = v, true
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range 2 * c.pairs {
		mu.Lock()
		s := stop
		mu.Unlock()
		if s {
			break
		}
		jobs <- job{i, i % 2}
	}
	close(jobs)
	wg.Wait()
	slices.SortFunc(res.games, func(a, b game) int { return a.index - b.index })
	if first != nil {
		return res, first
	}
	return res, nil
}
