package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// converse feeds script to a session with a fixed node budget and returns
// its replies, one per line.
func converse(t *testing.T, script string) []string {
	t.Helper()
	var out strings.Builder
	if err := newBrain(&out, 20_000).serve(context.Background(), strings.NewReader(script)); err != nil {
		t.Fatalf("serve: %v", err)
	}
	s := strings.TrimRight(out.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// cell parses a move reply "x,y".
func cell(t *testing.T, reply string) (int, int) {
	t.Helper()
	var x, y int
	if _, err := fmt.Sscanf(reply, "%d,%d", &x, &y); err != nil {
		t.Fatalf("reply %q is not a move: %v", reply, err)
	}
	return x, y
}

func TestConversationOpeningAndTurns(t *testing.T) {
	got := converse(t, "START 15\nBEGIN\nTURN 0,0\nEND\nTURN 1,1\n")
	if len(got) != 3 || got[0] != "OK" {
		t.Fatalf("replies %q, want OK, a move, a move (nothing after END)", got)
	}
	if x, y := cell(t, got[1]); x != 7 || y != 7 {
		t.Errorf("opening move %d,%d, want the centre 7,7", x, y)
	}
	x, y := cell(t, got[2])
	if x < 0 || x >= 15 || y < 0 || y >= 15 || x == 7 && y == 7 || x == 0 && y == 0 {
		t.Errorf("second move %d,%d is not a free cell", x, y)
	}
}

func TestConversationBoardBlocksFour(t *testing.T) {
	// The opponent (2) has four in row 3 from x=3 to 6, open at 2 and 7 is
	// ours; we must block at 2,3 (or win, which we cannot).
	script := "START 15\nBOARD\n3,3,2\n4,3,2\n5,3,2\n6,3,2\n7,3,1\n10,10,1\n11,11,1\nDONE\n"
	got := converse(t, script)
	if len(got) != 2 || got[1] != "2,3" {
		t.Fatalf("replies %q, want OK then the block 2,3", got)
	}
}

func TestConversationBoardTakesFive(t *testing.T) {
	script := "START 20\nSTART 19\nBOARD\n1,1,1\n1,2,1\n1,3,1\n1,4,1\n9,9,2\n9,10,2\n9,11,2\n9,12,2\n5,5,2\nDONE\n"
	got := converse(t, script)
	if len(got) != 3 || !strings.HasPrefix(got[0], "ERROR") || got[1] != "OK" {
		t.Fatalf("replies %q, want ERROR (size 20), OK, a move", got)
	}
	if got[2] != "1,0" && got[2] != "1,5" {
		t.Errorf("move %s, want the five at 1,0 or 1,5", got[2])
	}
}

func TestConversationRectAndExactRule(t *testing.T) {
	// Under exact five, 0..3 plus 5 would make six at 4; the engine must
	// see that 4,0 does not win for us and block the opponent's four.
	script := "INFO rule 1\nRECTSTART 12,10\nBOARD\n0,0,1\n1,0,1\n2,0,1\n3,0,1\n5,0,1\n0,5,2\n1,5,2\n2,5,2\n3,5,2\n6,6,2\n9,9,2\nDONE\n"
	got := converse(t, script)
	if len(got) != 2 || got[0] != "OK" || got[1] != "4,5" {
		t.Fatalf("replies %q, want OK then the block 4,5", got)
	}
}

func TestConversationErrorsAndUnknown(t *testing.T) {
	script := strings.Join([]string{
		"TURN 1,1",              // no game yet
		"START 15",              // OK
		"TURN 99,1",             // off the board
		"TURN x",                // syntax
		"FROBNICATE 3",          // unknown
		"INFO timeout_turn abc", // bad number
		"INFO evaluate 1,1",     // ignored
		"ABOUT",
		"TAKEBACK 5,5", // not the last move
		"RESTART",
		"END",
	}, "\n")
	got := converse(t, script)
	want := []string{"ERROR", "OK", "ERROR", "ERROR", "UNKNOWN FROBNICATE 3", "ERROR", `name="boardbot"`, "ERROR", "OK"}
	if len(got) != len(want) {
		t.Fatalf("replies %q, want %d lines", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("reply %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
}

func TestConversationTakeback(t *testing.T) {
	got := converse(t, "START 15\nBEGIN\nTAKEBACK 7,7\nBEGIN\n")
	if len(got) != 4 || got[1] != "7,7" || got[2] != "OK" || got[3] != "7,7" {
		t.Fatalf("replies %q, want OK, 7,7, OK, 7,7", got)
	}
}

func TestConversationIsReproducible(t *testing.T) {
	script := "START 15\nBEGIN\nTURN 8,8\nTURN 6,6\nTURN 9,7\n"
	a, b := converse(t, script), converse(t, script)
	if strings.Join(a, "|") != strings.Join(b, "|") {
		t.Errorf("same script, different games:\n%q\n%q", a, b)
	}
}

func TestThinkTimeFromInfo(t *testing.T) {
	b := newBrain(&strings.Builder{}, 0)
	b.start(15, 15)
	b.info("timeout_turn", "1000")
	if got := b.thinkTime(); got.Milliseconds() != 1000-marginMS {
		t.Errorf("turn 1000 ms: think %v", got)
	}
	b.info("time_left", "3000")
	if got := b.thinkTime(); got.Milliseconds() != 1000-marginMS {
		t.Errorf("3 s left and no match clock: think %v, want the turn's time", got)
	}
	b.info("timeout_turn", "30000")
	b.info("timeout_match", "180000")
	b.info("time_left", "180000")
	if got, want := b.thinkTime().Milliseconds(), int64(180000/matchSpace-marginMS); got != want {
		t.Errorf("180 s left of a 180 s match: think %d ms, want a share of %d ms", got, want)
	}
	b.info("time_left", "3000")
	if got, want := b.thinkTime().Milliseconds(), int64(3000/matchSpace-marginMS); got != want {
		t.Errorf("3 s left for the match: think %d ms, want %d", got, want)
	}
	// Near the end of a game the time left is shared among fewer moves:
	// 95 stones a side in runs of two leave 35 cells, 17 moves a side.
	var black, white []engine.Point
	for y := range 15 {
		for x := range 15 {
			p := engine.Point{X: x, Y: y}
			if (x+2*y)%4 < 2 {
				black = append(black, p)
			} else {
				white = append(white, p)
			}
		}
	}
	board, err := engine.Setup(b.board.Rules(), black[:95], white[:95])
	if err != nil {
		t.Fatal(err)
	}
	b.board = board
	if got, want := b.thinkTime().Milliseconds(), int64(3000/17-marginMS); got != want {
		t.Errorf("3 s left with 35 empty cells: think %d ms, want %d", got, want)
	}
	b.info("time_left", "0")
	if got := b.thinkTime(); got.Milliseconds() != minThinkMS {
		t.Errorf("no time left: think %v, want the minimum", got)
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		line string
		want command
		bad  bool
	}{
		{line: "START 15", want: command{name: "START", n: 15}},
		{line: "  turn 3,4 ", want: command{name: "TURN", x: 3, y: 4}},
		{line: "RECTSTART 20,10", want: command{name: "RECTSTART", x: 20, y: 10}},
		{line: "INFO timeout_turn 5000", want: command{name: "INFO", key: "timeout_turn", value: "5000"}},
		{line: "TAKEBACK 1,2", want: command{name: "TAKEBACK", x: 1, y: 2}},
		{line: "END", want: command{name: "END"}},
		{line: "WHAT is this", want: command{name: "WHAT"}},
		{line: "", want: command{}},
		{line: "START", bad: true},
		{line: "START -5", bad: true},
		{line: "TURN 3", bad: true},
		{line: "TURN 3,", bad: true},
		{line: "TURN 1,2,3", bad: true},
		{line: "BEGIN now", bad: true},
		{line: "INFO", bad: true},
		{line: "START 99999999999", bad: true},
	}
	for _, tc := range tests {
		got, err := parseCommand(tc.line)
		if tc.bad {
			if !errors.Is(err, errSyntax) {
				t.Errorf("parseCommand(%q) error %v, want errSyntax", tc.line, err)
			}
			continue
		}
		got.raw = ""
		if err != nil || got != tc.want {
			t.Errorf("parseCommand(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"START 15", "RECTSTART 20,15", "TURN 7,7", "BEGIN", "BOARD", "INFO timeout_turn 1000", "INFO rule 1", "TAKEBACK 3,4", "END", "ABOUT", "RESTART", "turn 1,2", "TURN ,", "START +3", "INFO  ", "7,7,1", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := parseCommand(line)
		if err != nil {
			if !errors.Is(err, errSyntax) {
				t.Fatalf("parseCommand(%q): error %v does not wrap errSyntax", line, err)
			}
			return
		}
		if c.n < 0 || c.x < 0 || c.y < 0 {
			t.Fatalf("parseCommand(%q) = %+v: negative number", line, c)
		}
		if c.name != strings.ToUpper(c.name) {
			t.Fatalf("parseCommand(%q): name %q not upper case", line, c.name)
		}
		// A session never panics and answers every line it does not ignore.
		var out strings.Builder
		if err := newBrain(&out, 200).serve(context.Background(), strings.NewReader("START 15\n"+line+"\n")); err != nil {
			t.Fatalf("serve: %v", err)
		}
	})
}
