package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// boardScript is a BOARD command with own (1) and opponent (2) stones in
// the order given.
func boardScript(own, opp []engine.Point) string {
	var sb strings.Builder
	sb.WriteString("BOARD\n")
	for _, p := range own {
		fmt.Fprintf(&sb, "%d,%d,1\n", p.X, p.Y)
	}
	for _, p := range opp {
		fmt.Fprintf(&sb, "%d,%d,2\n", p.X, p.Y)
	}
	sb.WriteString("DONE\n")
	return sb.String()
}

func TestConversationRenjuAvoidsDoubleFour(t *testing.T) {
	// We are Black: three down column 6 and three along row 7, each
	// closed at one end by White; 6,7 is a double four, a win in freestyle
	// and forbidden under renju.
	own := []engine.Point{{X: 6, Y: 4}, {X: 6, Y: 5}, {X: 6, Y: 6}, {X: 3, Y: 7}, {X: 4, Y: 7}, {X: 5, Y: 7}}
	opp := []engine.Point{{X: 6, Y: 3}, {X: 2, Y: 7}, {X: 14, Y: 14}, {X: 11, Y: 14}, {X: 14, Y: 11}, {X: 11, Y: 11}}
	free := converse(t, "START 15\n"+boardScript(own, opp))
	if len(free) != 2 || free[1] != "6,7" {
		t.Fatalf("freestyle replies %q, want OK then the double four 6,7", free)
	}
	got := converse(t, "INFO rule 4\nSTART 15\n"+boardScript(own, opp))
	if len(got) != 2 || got[0] != "OK" {
		t.Fatalf("renju replies %q, want OK then a move", got)
	}
	if got[1] == "6,7" {
		t.Fatalf("renju: played the double four 6,7")
	}
	x, y := cell(t, got[1])
	b, err := engine.Setup(engine.Rules{Width: 15, Height: 15, K: 5, Renju: true}, own, opp)
	if err != nil {
		t.Fatal(err)
	}
	if f := b.Foul(engine.Point{X: x, Y: y}); f != engine.NoFoul {
		t.Fatalf("renju: played %d,%d, a %v", x, y, f)
	}
}

func TestConversationRenjuWhiteForcesAFoul(t *testing.T) {
	// We are White with three on the diagonal 4,4..6,6, closed at 2,2 and
	// 8,8 by Black; our four at 3,3 leaves Black one block, 7,7, which is
	// a double three: under renju it wins.
	own := []engine.Point{{X: 4, Y: 4}, {X: 5, Y: 5}, {X: 6, Y: 6}, {X: 14, Y: 14}, {X: 11, Y: 14}}
	opp := []engine.Point{{X: 2, Y: 2}, {X: 5, Y: 7}, {X: 6, Y: 7}, {X: 7, Y: 5}, {X: 7, Y: 6}, {X: 8, Y: 8}}
	got := converse(t, "INFO rule 4\nSTART 15\n"+boardScript(own, opp))
	if len(got) != 2 || got[1] != "3,3" {
		t.Fatalf("renju replies %q, want OK then the four 3,3", got)
	}
	// Black's block there is refused.
	got = converse(t, "INFO rule 4\nSTART 15\n"+boardScript(own, opp)+"TURN 7,7\n")
	if len(got) != 3 || !strings.HasPrefix(got[2], "ERROR") || !strings.Contains(got[2], "double three") {
		t.Fatalf("replies %q, want the foul 7,7 refused", got)
	}
}

func TestConversationRenjuBoardInAnyOrder(t *testing.T) {
	// Our last black stone 7,7 was a double three when Black played it,
	// before White's 4,7 closed the row; as a whole position it is legal.
	own := []engine.Point{{X: 5, Y: 7}, {X: 6, Y: 7}, {X: 7, Y: 5}, {X: 7, Y: 6}, {X: 7, Y: 7}}
	opp := []engine.Point{{X: 0, Y: 0}, {X: 14, Y: 0}, {X: 0, Y: 14}, {X: 14, Y: 14}, {X: 4, Y: 7}}
	r := engine.Rules{Width: 15, Height: 15, K: 5, Renju: true}
	var moves []engine.Point
	for i := range own {
		moves = append(moves, own[i], opp[i])
	}
	if _, err := engine.Replay(r, moves); !errors.Is(err, engine.ErrForbidden) {
		t.Fatalf("Replay in this order = %v, want the foul that makes the test worth having", err)
	}
	got := converse(t, "INFO rule 4\nSTART 15\n"+boardScript(own, opp))
	if len(got) != 2 || got[0] != "OK" {
		t.Fatalf("replies %q, want OK then a move", got)
	}
	cell(t, got[1])
}

func TestConversationRuleBits(t *testing.T) {
	for _, tc := range []struct {
		rule    string
		message bool
	}{{"0", false}, {"1", false}, {"4", false}, {"2", true}, {"5", true}, {"8", true}} {
		got := converse(t, "INFO rule "+tc.rule+"\n")
		if msg := len(got) == 1 && strings.HasPrefix(got[0], "MESSAGE"); msg != tc.message || !tc.message && len(got) != 0 {
			t.Errorf("INFO rule %s: replies %q, want a MESSAGE: %v", tc.rule, got, tc.message)
		}
	}
}
