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
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/boardbot/boardbot/engine"
)

func main() {
	level := flag.String("level", "hard", "player: easy, medium or hard")
	nodes := flag.Int64("nodes", 0, "hard's node budget a move (0: the manager's time)")
	flag.Parse()
	l, err := engine.ParseLevel(*level)
	if err != nil || *nodes < 0 || flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "pbrain: -level %q -nodes %d: want easy, medium or hard and a non-negative budget\n", *level, *nodes)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b := newBrain(os.Stdout, *nodes)
	b.level = l
	if err := b.serve(ctx, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
