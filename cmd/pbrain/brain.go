package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// version is reported by ABOUT.
const version = "1.0"

// Time management defaults, in milliseconds, used until the manager sends
// INFO timeout_turn or time_left.
const (
	defaultTurnMS = 5000
	marginMS      = 60 // kept back from every budget for I/O
	minThinkMS    = 10 // the least a move is given
	// matchSpace is how many more moves of its own the rest of a game
	// under a match clock is assumed to take at most (the value of
	// Rapfi's match_space).
	matchSpace = 21
	maxTTBytes = 64 << 20
)

// brain holds one protocol session: the game and the manager's settings.
type brain struct {
	out      *bufio.Writer
	board    *engine.Board
	exact    bool // INFO rule bit 1: exactly five wins
	renju    bool // INFO rule bit 4: renju
	turnMS   int  // INFO timeout_turn; 0 means as fast as possible
	matchMS  int  // INFO timeout_match; 0 means no match clock
	leftMS   int  // INFO time_left; -1 when not told
	memBytes int  // INFO max_memory; 0 means no limit
	maxNodes int64
	level    engine.Level // the player: Hard unless the -level flag says otherwise
	rng      *rand.Rand
}

// newBrain returns a session writing to out; maxNodes > 0 bounds each
// search by nodes instead of time, for reproducible tests.
func newBrain(out io.Writer, maxNodes int64) *brain {
	return &brain{out: bufio.NewWriter(out), turnMS: defaultTurnMS, leftMS: -1, maxNodes: maxNodes, level: engine.Hard, rng: rand.New(rand.NewPCG(1, 2))}
}

// serve reads commands until END or EOF.
func (b *brain) serve(ctx context.Context, in io.Reader) error {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		c, err := parseCommand(sc.Text())
		switch {
		case err != nil:
			b.say("ERROR " + err.Error())
		case c.name == "END":
			return b.out.Flush()
		case c.name == "BOARD":
			b.readBoard(ctx, sc)
		default:
			b.handle(ctx, c)
		}
		if err := b.out.Flush(); err != nil {
			return fmt.Errorf("pbrain: write: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("pbrain: read: %w", err)
	}
	return b.out.Flush()
}

// say writes one line.
func (b *brain) say(line string) { b.out.WriteString(line + "\n") }

// handle answers one command other than BOARD and END.
func (b *brain) handle(ctx context.Context, c command) {
	switch c.name {
	case "":
	case "START":
		b.start(c.n, c.n)
	case "RECTSTART":
		b.start(c.x, c.y)
	case "RESTART":
		if b.board == nil {
			b.say("ERROR no game to restart: send START first")
			return
		}
		r := b.board.Rules()
		b.start(r.Width, r.Height)
	case "BEGIN":
		if b.ready() {
			if b.board.MoveCount() > 0 {
				b.say("ERROR BEGIN on a board with stones")
				return
			}
			b.move(ctx)
		}
	case "TURN":
		if b.ready() {
			if err := b.board.Play(engine.Point{X: c.x, Y: c.y}); err != nil {
				b.say("ERROR " + err.Error())
				return
			}
			b.move(ctx)
		}
	case "TAKEBACK":
		if b.ready() {
			last, ok := b.board.LastMove()
			if !ok || last != (engine.Point{X: c.x, Y: c.y}) {
				b.say(fmt.Sprintf("ERROR takeback %d,%d: not the last move", c.x, c.y))
				return
			}
			_ = b.board.Undo()
			b.say("OK")
		}
	case "INFO":
		b.info(c.key, c.value)
	case "ABOUT":
		b.say(`name="boardbot", version="` + version + `", author="boardbot authors", country="Internet"`)
	default:
		b.say("UNKNOWN " + c.raw)
	}
}

// start begins a new game on a w×h board and answers OK or ERROR.
func (b *brain) start(w, h int) {
	r := engine.Rules{Width: w, Height: h, K: 5, Exact: b.exact, Renju: b.renju}
	board, err := engine.NewBoard(r)
	if err != nil {
		b.say(fmt.Sprintf("ERROR unsupported board %dx%d: %v", w, h, err))
		return
	}
	b.board = board
	b.say("OK")
}

// ready reports whether a game was started, saying ERROR if not.
func (b *brain) ready() bool {
	if b.board == nil {
		b.say("ERROR no game: send START first")
	}
	return b.board != nil
}

// info stores one INFO setting. INFO needs no answer.
func (b *brain) info(key, value string) {
	n, err := strconv.Atoi(value)
	switch key {
	case "timeout_turn", "time_left", "max_memory", "rule", "timeout_match":
		if err != nil || n < 0 {
			b.say(fmt.Sprintf("ERROR INFO %s %q: not a non-negative number", key, value))
			return
		}
	default:
		return // other keys (game_type, folder, evaluate…) do not matter
	}
	switch key {
	case "timeout_turn":
		b.turnMS = n
	case "timeout_match":
		b.matchMS = n
	case "time_left":
		b.leftMS = n
	case "max_memory":
		b.memBytes = n
	case "rule":
		// A bitmask: 1 exact five, 2 continuous game, 4 renju.
		b.renju = n&ruleRenju != 0
		b.exact = n&ruleExact != 0 && !b.renju
		if n&^(ruleExact|ruleRenju) != 0 || n&ruleExact != 0 && b.renju {
			b.say(fmt.Sprintf("MESSAGE rule %d: only freestyle (0), exact five (1) and renju (4) are supported; playing %s", n, b.ruleName()))
		}
		if b.board != nil && b.board.MoveCount() == 0 {
			r := b.board.Rules()
			r.Exact, r.Renju = b.exact, b.renju
			b.board, _ = engine.NewBoard(r)
		}
	}
}

// The bits of INFO rule this brain plays.
const (
	ruleExact = 1
	ruleRenju = 4
)

// ruleName names the rule being played.
func (b *brain) ruleName() string {
	switch {
	case b.renju:
		return "renju"
	case b.exact:
		return "exact five"
	}
	return "freestyle"
}

// readBoard reads the lines up to DONE, sets the position and moves.
func (b *brain) readBoard(ctx context.Context, sc *bufio.Scanner) {
	var own, opp []engine.Point
	var bad error
	for sc.Scan() {
		line := sc.Text()
		if c, _ := parseCommand(line); c.name == "DONE" {
			break
		}
		x, y, f, err := parseField(line)
		switch {
		case err != nil:
			bad = err
		case f == 1:
			own = append(own, engine.Point{X: x, Y: y})
		case f == 2:
			opp = append(opp, engine.Point{X: x, Y: y})
		case f == 3:
			// A winning-line marker of continuous games: ignored.
		default:
			bad = fmt.Errorf("pbrain: board line %q: field must be 1, 2 or 3", line)
		}
	}
	if bad == nil && !b.ready() {
		return
	}
	if bad != nil {
		b.say("ERROR " + bad.Error())
		return
	}
	// We are to move: with as many stones as the opponent we play black.
	black, white := own, opp
	if len(opp) == len(own)+1 {
		black, white = opp, own
	} else if len(opp) != len(own) {
		b.say(fmt.Sprintf("ERROR board with %d own and %d opponent stones: counts must alternate", len(own), len(opp)))
		return
	}
	// Setup, not Replay: the manager sends the stones in any order, and
	// under renju a black stone may have been a foul in another order.
	board, err := engine.Setup(b.board.Rules(), black, white)
	if err != nil {
		b.say("ERROR " + err.Error())
		return
	}
	b.board = board
	b.move(ctx)
}

// move chooses, plays and prints the engine's move.
func (b *brain) move(ctx context.Context) {
	if b.board.Over() {
		b.say("ERROR the game is over")
		return
	}
	think := b.thinkTime()
	if b.maxNodes == 0 {
		// The engine keeps its own time; this is a backstop.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, think+marginMS*time.Millisecond/2)
		defer cancel()
	}
	tt := engine.DefaultTTBytes
	if b.memBytes > 0 {
		tt = min(maxTTBytes, b.memBytes/3)
	}
	ai, err := engine.NewPlayerWith(b.level, engine.Options{Rand: b.rng, ThinkTime: think, MaxNodes: b.maxNodes, TTBytes: max(tt, 1<<20)})
	if err != nil {
		b.say("ERROR " + err.Error())
		return
	}
	p, err := ai.Move(ctx, b.board)
	if err != nil {
		b.say("ERROR " + err.Error())
		return
	}
	if err := b.board.Play(p); err != nil {
		b.say("ERROR " + err.Error())
		return
	}
	b.say(fmt.Sprintf("%d,%d", p.X, p.Y))
}

// thinkTime budgets one move from timeout_turn and, under a match clock
// (timeout_match), time_left: the turn's time, but no more than the time
// left shared among the moves the game may still take, keeping a margin
// for I/O. Time a move leaves unused goes back to the match clock, and so
// to the moves after it.
func (b *brain) thinkTime() time.Duration {
	ms := b.turnMS
	if ms == 0 {
		ms = 100 // "as fast as possible": a short look still finds tactics
	}
	if b.matchMS > 0 && b.leftMS >= 0 {
		r := b.board.Rules()
		movesToGo := max(1, min(matchSpace, (r.Cells()-b.board.MoveCount())/2))
		ms = min(ms, b.leftMS/movesToGo)
	}
	return time.Duration(max(minThinkMS, ms-marginMS)) * time.Millisecond
}
