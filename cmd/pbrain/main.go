// Command pbrain is the boardbot engine as a Gomocup (piskvork) protocol
// program: it reads the manager's commands on stdin and answers on stdout,
// so tournament managers such as piskvork and c-gomoku-cli can play it
// against other engines. It plays five in a row, freestyle (INFO rule 0) or
// exactly five (rule 1), on boards from 5×5 to 19×19.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
