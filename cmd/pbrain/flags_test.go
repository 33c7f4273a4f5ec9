package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

func TestParseFlags(t *testing.T) {
	l, n, err := parseFlags([]string{"-level", "medium", "-nodes", "5000"}, io.Discard)
	if err != nil || l != engine.Medium || n != 5000 {
		t.Fatalf("parseFlags = %v, %d, %v; want medium, 5000", l, n, err)
	}
	l, n, err = parseFlags(nil, io.Discard)
	if err != nil || l != engine.Hard || n != 0 {
		t.Fatalf("parseFlags() = %v, %d, %v; want hard, 0", l, n, err)
	}
	for _, args := range [][]string{{"-level", "grandmaster"}, {"-level", "adaptive"}, {"-nodes", "-1"}, {"extra"}, {"-bogus"}} {
		if _, _, err := parseFlags(args, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("parseFlags(%q) = %v, want a usage error", args, err)
		}
	}
}

// A brain at a fixed node budget plays the same game twice: what
// self-play matches at -nodes rely on.
func TestNodeBudgetRepeats(t *testing.T) {
	script := "START 15\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\nTURN 6,6\nTURN 5,7\nEND\n"
	play := func(level engine.Level) string {
		var out strings.Builder
		b := newBrain(&out, 20_000)
		b.level = level
		if err := b.serve(context.Background(), strings.NewReader(script)); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if a, b := play(engine.Hard), play(engine.Hard); a != b {
		t.Fatalf("two runs at 20000 nodes differ:\n%s\n%s", a, b)
	}
	if got := play(engine.Medium); strings.Count(got, ",") != 3 || strings.Contains(got, "ERROR") {
		t.Fatalf("medium answered %q, want three moves", got)
	}
}
