package engine

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// narrowWins are 15×15 freestyle positions, from games against AIWine,
// where the side to move wins by narrow continuous threats within 12 plies
// and has no VCF.
var narrowWins = []string{
	"4,10 9,7 6,5 9,8 4,7 10,7 4,9 4,8",
	"4,10 9,7 6,5 8,8 4,7 8,6 5,6 7,4 4,9 4,8",
	"6,9 6,5 9,5 5,5 9,6 5,6 9,7 9,4",
	"6,9 6,5 9,5 5,5 7,7 6,4 8,6 6,8 5,7 4,7 10,4 11,3 7,4 7,3 4,6 9,1 8,2 10,2 12,4",
	"6,10 9,4 9,5 10,5 8,3 9,6 11,4 10,3 10,4 8,6 7,6 8,7 8,4 10,7 8,5 9,7 11,7 10,6 7,5",
	"6,10 9,4 9,5 10,5 5,9 11,4 10,4 11,3 11,5 10,3 9,3 8,2 4,8 7,11 12,6 13,7 3,7 2,6 13,6 11,6 12,7",
	"10,10 9,4 7,4 9,6 9,5 10,5 10,6 11,4 12,3 8,3 7,2 7,3 11,3 10,3 12,8 11,7 10,4 8,6 8,5 12,5 13,6",
}

// intoNarrowLoss are 15×15 freestyle positions, from games against AIWine,
// where the previous hard played a move after which the opponent won by
// narrow threats, though other moves were safe from them.
var intoNarrowLoss = []string{
	"4,5 9,8 5,6 9,7 5,5",
	"9,9 10,5 6,7 10,6 8,9 7,8 8,7",
	"4,6 5,5 10,7 5,7 4,4 6,7 5,4 4,7 7,7 5,8 3,4 6,4",
	"4,10 8,4 7,8 8,5 5,10 9,6 7,10 6,10 7,9 7,11 5,9 8,6 8,7",
	"8,7 5,10 4,10 4,9 3,8 6,9 5,9 6,8 6,7 7,7 5,6 4,5 3,7 4,11 3,12",
	"9,8 8,8 5,5 9,7 10,6 7,9 7,6 8,7 10,7 8,9 8,6 9,6 10,5 10,4 6,9 10,9",
	"6,10 9,4 9,5 10,5 8,3 9,6 11,4 10,3 10,4 8,6 7,6 8,7 8,4 10,7 8,5 9,7 11,7 10,6",
	"4,6 5,6 7,9 5,7 5,5 6,4 5,9 6,7 8,9 4,9 7,7 6,6 9,9 6,9 6,8 8,6 10,9 11,9",
}

// movesBoard plays a list of "x,y" moves from an empty 15×15 freestyle
// board.
func movesBoard(t *testing.T, moves string) *Board {
	t.Helper()
	var ps []Point
	for _, f := range strings.Fields(moves) {
		x, y, ok := strings.Cut(f, ",")
		px, err1 := strconv.Atoi(x)
		py, err2 := strconv.Atoi(y)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad move %q", f)
		}
		ps = append(ps, Point{px, py})
	}
	return mustPlay(t, gomoku, ps...)
}

// unbounded returns a searcher of p with no budget.
func unbounded(p *pos) *searcher {
	return newSearcher(p, getTT(1<<16, true), newLimits(context.Background(), 0, 1<<62))
}

// TestNarrowVCTWinsAgainstEveryReply checks what the narrow search finds:
// after its first attacking move, every reply near the stones (not only
// the ones it thinks of as defences) still loses to it.
func TestNarrowVCTWinsAgainstEveryReply(t *testing.T) {
	for _, moves := range narrowWins {
		b := movesBoard(t, moves)
		p := newPos(b)
		s := unbounded(p)
		if !s.vctn(12, 0, p.lastStone()) {
			t.Errorf("%s: no narrow VCT found", moves)
			continue
		}
		atk := int(s.threatMove[0])
		s.play(atk)
		replies, _ := p.scan(nil)
		for _, r := range replies {
			s.play(int(r.cell))
			if !s.vctn(10, 0, atk) {
				t.Errorf("%s: after %v, the reply %v holds", moves, p.point(atk), p.point(int(r.cell)))
			}
			p.undo()
		}
		p.undo()
	}
}

// TestNarrowVCTBeatsHard plays each narrow win out: the attacker follows
// the narrow search, the defender is hard, and the attacker must make five
// within the plies the search named.
func TestNarrowVCTBeatsHard(t *testing.T) {
	for _, moves := range narrowWins {
		b := movesBoard(t, moves)
		attacker := b.ToMove()
		last := newPos(b).lastStone()
		for plies := 12; !b.Over(); plies-- {
			if b.ToMove() == attacker {
				p := newPos(b)
				s := unbounded(p)
				if !s.vctn(plies, 0, last) {
					t.Fatalf("%s: the win is gone with %d plies left:\n%s", moves, plies, show(b))
				}
				// The search goes on from its latest attacking stone; a
				// forced block is not one.
				c := int(s.threatMove[0])
				if _, th := p.scan(nil); th.oppFive < 0 {
					last = c
				}
				if err := b.Play(p.point(c)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := b.Play(hardMove(t, b, 20_000)); err != nil {
				t.Fatal(err)
			}
		}
		if o := b.Outcome(); o.Status != Won || o.Winner != attacker {
			t.Errorf("%s: the attacker did not win:\n%s", moves, show(b))
		}
	}
}

// TestHardLeavesOutMovesThatLoseToThreats: where the previous version
// played into a narrow VCT of the opponent, hard now plays a move after
// which the opponent has none.
func TestHardLeavesOutMovesThatLoseToThreats(t *testing.T) {
	for _, moves := range intoNarrowLoss {
		b := movesBoard(t, moves)
		m := hardMove(t, b, 200_000)
		_ = b.Play(m)
		p := newPos(b)
		if unbounded(p).vctn(guardPlies, 0, p.lastStone()) {
			t.Errorf("%s: after hard's %v the opponent wins by narrow threats:\n%s", moves, m, show(b))
		}
	}
}
