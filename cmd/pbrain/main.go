// Command pbrain is the boardbot engine as a Gomocup (piskvork) protocol
// program: it reads the manager's commands on stdin and answers on stdout,
// so tournament managers such as piskvork and c-gomoku-cli can play it
// against other engines. It plays five in a row, freestyle (INFO rule 0),
// exactly five (rule 1) or renju (rule 4), on boards from 5×5 to 19×19.
//
// Flags: -level easy|medium|hard (default hard) chooses the player, and
// -nodes N bounds hard's search by N nodes a move instead of the manager's
// time, which makes its games reproducible and independent of the
// machine's load (for self-play matches with cmd/gomocup-match).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/boardbot/boardbot/engine"
)

func main() {
	level, nodes, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b := newBrain(os.Stdout, nodes)
	b.level = level
	if err := b.serve(ctx, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// errUsage is a bad command line.
var errUsage = errors.New("pbrain: usage")

// parseFlags returns the player level and node budget the command line
// asks for, writing flag errors and help to w.
func parseFlags(args []string, w io.Writer) (engine.Level, int64, error) {
	fs := flag.NewFlagSet("pbrain", flag.ContinueOnError)
	fs.SetOutput(w)
	level := fs.String("level", "hard", "player: easy, medium or hard")
	nodes := fs.Int64("nodes", 0, "hard's node budget a move (0: the manager's time)")
	if err := fs.Parse(args); err != nil {
		return 0, 0, fmt.Errorf("%w: %v", errUsage, err)
	}
	l, err := engine.ParseLevel(*level)
	switch {
	case err != nil || l == engine.Adaptive: // adaptive plays to a chat player's rating
		return 0, 0, fmt.Errorf("%w: -level %q: want easy, medium or hard", errUsage, *level)
	case *nodes < 0:
		return 0, 0, fmt.Errorf("%w: -nodes %d: want a non-negative budget", errUsage, *nodes)
	case fs.NArg() > 0:
		return 0, 0, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return l, *nodes, nil
}
