package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// errFault marks an engine's failure to follow the protocol or the clock:
// the game is lost by that engine.
var errFault = errors.New("gomocup-match: engine fault")

// proc is one running engine process speaking the piskvork protocol.
type proc struct {
	name  string // for messages: the engine's label
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // stdout lines; closed at EOF
	done  chan error  // the process's exit
	// keep asks reply to keep the MESSAGE lines it skips in messages.
	keep     bool
	messages []string
}

// startProc starts argv (program and arguments) with env added to the
// environment.
func startProc(name string, argv, env []string) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(cmd.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gomocup-match: %s: %w", name, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("gomocup-match: %s: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("gomocup-match: start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, in: in, lines: make(chan string, 64), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- strings.TrimSpace(sc.Text())
		}
		close(p.lines)
		p.done <- cmd.Wait()
	}()
	return p, nil
}

// send writes lines to the engine.
func (p *proc) send(lines ...string) error {
	if _, err := io.WriteString(p.in, strings.Join(lines, "\n")+"\n"); err != nil {
		return fmt.Errorf("%w: %s: write: %v", errFault, p.name, err)
	}
	return nil
}

// reply returns the engine's next answer line, skipping MESSAGE, DEBUG
// and SUGGEST lines, or a fault when it does not come within guard.
func (p *proc) reply(guard time.Duration, what string) (string, error) {
	t := time.NewTimer(guard)
	defer t.Stop()
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return "", fmt.Errorf("%w: %s exited instead of answering %s", errFault, p.name, what)
			}
			switch w, _, _ := strings.Cut(l, " "); strings.ToUpper(w) {
			case "MESSAGE":
				if p.keep {
					p.messages = append(p.messages, l)
				}
				continue
			case "", "DEBUG", "SUGGEST":
				continue
			case "ERROR", "UNKNOWN":
				return "", fmt.Errorf("%w: %s answered %s with %q", errFault, p.name, what, l)
			}
			return l, nil
		case <-t.C:
			return "", fmt.Errorf("%w: %s gave no answer to %s within the wall-clock guard of %v", errFault, p.name, what, guard)
		}
	}
}

// move waits for a move line "x,y".
func (p *proc) move(guard time.Duration, what string) (engine.Point, error) {
	l, err := p.reply(guard, what)
	if err != nil {
		return engine.Point{}, err
	}
	xs, ys, ok := strings.Cut(l, ",")
	x, errX := strconv.Atoi(strings.TrimSpace(xs))
	y, errY := strconv.Atoi(strings.TrimSpace(ys))
	if !ok || errX != nil || errY != nil {
		return engine.Point{}, fmt.Errorf("%w: %s answered %s with %q, not a move", errFault, p.name, what, l)
	}
	return engine.Point{X: x, Y: y}, nil
}

// stop ends the process: END, then a kill if it has not exited within
// grace.
func (p *proc) stop(grace time.Duration) {
	_ = p.send("END")
	_ = p.in.Close()
	t := time.NewTimer(grace)
	defer t.Stop()
	for {
		select {
		case _, ok := <-p.lines:
			if ok {
				continue
			}
			select {
			case <-p.done:
			case <-t.C:
				_ = p.cmd.Process.Kill()
				<-p.done
			}
			return
		case <-t.C:
			_ = p.cmd.Process.Kill()
			for range p.lines {
			}
			<-p.done
			return
		}
	}
}
