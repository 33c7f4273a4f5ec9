package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/boardbot/boardbot/engine"
)

// readBook reads a file of openings, one a line in the notation engines
// such as Rapfi write (h8i9j10: a column letter from a, then a row number
// from 1, for each stone, black first). Blank lines and lines starting
// with # are skipped. Every opening must be a legal, unfinished game under
// r.
func readBook(name string, r engine.Rules) ([][]engine.Point, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var book [][]engine.Point
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps, err := parseOpening(line)
		if err == nil {
			var b *engine.Board
			if b, err = engine.Replay(r, ps); err == nil && b.Over() {
				err = fmt.Errorf("the game is over")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q: %w", name, n, line, err)
		}
		book = append(book, ps)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(book) == 0 {
		return nil, fmt.Errorf("%s holds no opening", name)
	}
	return book, nil
}

// parseOpening reads one opening line: pairs of a column letter and a
// row number from 1.
func parseOpening(s string) ([]engine.Point, error) {
	var ps []engine.Point
	for i := 0; i < len(s); {
		c := s[i]
		if c < 'a' || c > 'z' {
			return nil, fmt.Errorf("at %d: want a column letter", i+1)
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 || j-i > 3 {
			return nil, fmt.Errorf("at %d: want a row number after %c", i+2, c)
		}
		row := 0
		for _, d := range s[i+1 : j] {
			row = row*10 + int(d-'0')
		}
		if row < 1 {
			return nil, fmt.Errorf("at %d: rows count from 1", i+2)
		}
		ps = append(ps, engine.Point{X: int(c - 'a'), Y: row - 1})
		i = j
	}
	return ps, nil
}
