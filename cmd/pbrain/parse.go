package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// errSyntax is returned by parseCommand and parseField for a line whose
// arguments do not fit its command.
var errSyntax = errors.New("bad arguments")

// command is one parsed protocol line.
type command struct {
	name  string // upper case: START, TURN, INFO…; "" for an empty line
	n     int    // START size
	x, y  int    // TURN and TAKEBACK cell; RECTSTART width and height
	key   string // INFO key, lower case
	value string // INFO value
	raw   string // the line as read, trimmed
}

// parseCommand parses one line of the manager's commands (not the lines
// inside BOARD … DONE). An unknown command name parses with its name and
// no error; run answers it with UNKNOWN.
func parseCommand(line string) (command, error) {
	line = strings.TrimSpace(line)
	c := command{raw: line}
	if line == "" {
		return c, nil
	}
	name, rest, _ := strings.Cut(line, " ")
	c.name = strings.ToUpper(name)
	rest = strings.TrimSpace(rest)
	var err error
	switch c.name {
	case "START":
		c.n, err = atoi(rest)
	case "RECTSTART", "TURN", "TAKEBACK":
		c.x, c.y, err = pair(rest)
	case "INFO":
		k, v, _ := strings.Cut(rest, " ")
		c.key, c.value = strings.ToLower(k), strings.TrimSpace(v)
		if c.key == "" {
			err = errSyntax
		}
	case "BEGIN", "BOARD", "RESTART", "END", "ABOUT":
		if rest != "" {
			err = errSyntax
		}
	}
	if err != nil {
		return c, fmt.Errorf("pbrain: %q: %w", line, err)
	}
	return c, nil
}

// parseField parses a line "x,y,field" inside BOARD … DONE.
func parseField(line string) (x, y, field int, err error) {
	parts := strings.Split(strings.TrimSpace(line), ",")
	if len(parts) != 3 {
		return 0, 0, 0, fmt.Errorf("pbrain: board line %q: %w", line, errSyntax)
	}
	var v [3]int
	for i, s := range parts {
		if v[i], err = atoi(s); err != nil {
			return 0, 0, 0, fmt.Errorf("pbrain: board line %q: %w", line, err)
		}
	}
	return v[0], v[1], v[2], nil
}

// pair parses "a,b" into two non-negative integers.
func pair(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, errSyntax
	}
	x, err := atoi(a)
	if err != nil {
		return 0, 0, err
	}
	y, err := atoi(b)
	return x, y, err
}

// atoi parses a non-negative decimal integer of at most nine digits.
func atoi(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 9 {
		return 0, errSyntax
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, errSyntax
	}
	return n, nil
}
