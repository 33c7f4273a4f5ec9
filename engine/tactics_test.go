package engine

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// long turns on the slow tests: whole-game proofs on 4×4 boards, all 150
// tactics play-outs, and full calibration matches.
var long = flag.Bool("long", false, "run the slow proofs, tactics play-outs and matches")

// vcfPuzzle is one position of ../shared/testdata/vcf-freestyle-15.json.
type vcfPuzzle struct {
	ID      string   `json:"id"`
	Black   []string `json:"black"`
	White   []string `json:"white"`
	ToMove  string   `json:"to_move"`
	Winning []string `json:"winning_moves"`
	Length  int      `json:"vcf_length"`
}

// loadVCF reads the shared VCF puzzles, which live in shared/ beside the
// repository root and are not copied into it (their source has no
// licence). In CI (CI set in the environment), where shared/ is always
// there, a missing file fails the test; in a clone elsewhere the test is
// skipped with the reason.
func loadVCF(t testing.TB) []vcfPuzzle {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "testdata", "vcf-freestyle-15.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && os.Getenv("CI") == "" {
		t.Skipf("tactics puzzles: %s is not beside this clone (CI runs this test)", path)
	}
	if err != nil {
		t.Fatalf("tactics puzzles: %v (expected the shared/ folder beside the repository root)", err)
	}
	var f struct {
		Puzzles []vcfPuzzle `json:"puzzles"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("tactics puzzles %s: %v", path, err)
	}
	if len(f.Puzzles) != 150 {
		t.Fatalf("tactics puzzles %s: %d positions, want 150", path, len(f.Puzzles))
	}
	return f.Puzzles
}

// coord converts "H8" to a point on a 15×15 board (row 1 at the bottom).
func coord(t testing.TB, s string) Point {
	t.Helper()
	var row int
	if _, err := fmt.Sscanf(s[1:], "%d", &row); err != nil || s[0] < 'A' || s[0] > 'O' {
		t.Fatalf("bad coordinate %q", s)
	}
	return Point{int(s[0] - 'A'), 15 - row}
}

// name converts a 15×15 point back to "H8" form.
func name(p Point) string { return fmt.Sprintf("%c%d", 'A'+p.X, 15-p.Y) }

// puzzleBoard sets up a puzzle's position by alternating its stones; when
// white is to move black has one stone more.
func puzzleBoard(t testing.TB, pz vcfPuzzle) *Board {
	t.Helper()
	var moves []Point
	for i := range max(len(pz.Black), len(pz.White)) {
		if i < len(pz.Black) {
			moves = append(moves, coord(t, pz.Black[i]))
		}
		if i < len(pz.White) {
			moves = append(moves, coord(t, pz.White[i]))
		}
	}
	b := mustPlay(t.(*testing.T), Rules{15, 15, 5, false, false}, moves...)
	if b.ToMove().String() != pz.ToMove {
		t.Fatalf("%s: %v to move, puzzle says %s", pz.ID, b.ToMove(), pz.ToMove)
	}
	return b
}

// tacticsNodes is the node budget of hard in the tactics tests.
const tacticsNodes = 200_000

func tacticsPlayer(seed uint64) Player {
	p, _ := NewPlayerWith(Hard, Options{Rand: rand.New(rand.NewPCG(seed, 3)), MaxNodes: tacticsNodes, TTBytes: 4 << 20})
	return p
}

func TestVCFPuzzlesFirstMove(t *testing.T) {
	puzzles := loadVCF(t)
	var misses []string
	for i, pz := range puzzles {
		b := puzzleBoard(t, pz)
		p, err := tacticsPlayer(uint64(i)).Move(context.Background(), b)
		if err != nil {
			t.Fatalf("%s: %v", pz.ID, err)
		}
		if !slices.Contains(pz.Winning, name(p)) {
			misses = append(misses, fmt.Sprintf("%s played %s, want one of %v (VCF length %d)", pz.ID, name(p), pz.Winning, pz.Length))
		}
	}
	hit := len(puzzles) - len(misses)
	t.Logf("first move is a listed VCF move in %d/%d positions (%.1f%%)", hit, len(puzzles), 100*float64(hit)/float64(len(puzzles)))
	for _, m := range misses {
		t.Log("miss: " + m)
	}
	if hit*100 < 95*len(puzzles) {
		t.Errorf("only %d/%d first moves win by VCF, want ≥ 95%%", hit, len(puzzles))
	}
}

func TestVCFPuzzlesPlayedOut(t *testing.T) {
	puzzles := loadVCF(t)
	played, won := 0, 0
	var lost []string
	for i, pz := range puzzles {
		b := puzzleBoard(t, pz)
		attacker := b.ToMove()
		ai := tacticsPlayer(uint64(i))
		for !b.Over() {
			p, err := ai.Move(context.Background(), b)
			if err != nil {
				t.Fatalf("%s: %v\n%s", pz.ID, err, show(b))
			}
			if err := b.Play(p); err != nil {
				t.Fatalf("%s: illegal %v: %v\n%s", pz.ID, p, err, show(b))
			}
		}
		played++
		if o := b.Outcome(); o.Status == Won && o.Winner == attacker {
			won++
		} else {
			lost = append(lost, fmt.Sprintf("%s:\n%s", pz.ID, show(b)))
		}
	}
	t.Logf("side to move won %d/%d play-outs against hard defending", won, played)
	if len(lost) > 0 {
		t.Errorf("side to move failed to win:\n%s", strings.Join(lost, "\n"))
	}
}
