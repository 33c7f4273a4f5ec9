package engine

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"
)

// renju is the renju preset: 15×15, RIF rules.
var renju = Rules{Width: 15, Height: 15, K: 5, Renju: true}

// foulCase is one position of testdata/renju-fouls.txt.
type foulCase struct {
	name, verdict string
	rows          []string
}

// loadFoulCases reads the forbidden-point fixtures.
func loadFoulCases(t *testing.T) []foulCase {
	t.Helper()
	f, err := os.Open("testdata/renju-fouls.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []foulCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "== "):
			head := strings.TrimPrefix(line, "== ")
			i := strings.LastIndex(head, ": ")
			if i < 0 {
				t.Fatalf("fixture header %q has no verdict", line)
			}
			cs = append(cs, foulCase{name: head[:i], verdict: head[i+2:]})
		case strings.TrimSpace(line) == "":
		default:
			if len(cs) == 0 {
				t.Fatalf("fixture row %q before any header", line)
			}
			cs[len(cs)-1].rows = append(cs[len(cs)-1].rows, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cs
}

// diagramBoard sets up a diagram (X, O, ., and * for the returned point) at
// the top-left of an empty board of rules r with Black to move, adding
// white stones three apart on free points of the bottom-right corner to
// even the count.
func diagramBoard(t *testing.T, r Rules, rows []string) (*Board, Point) {
	t.Helper()
	return diagramBoardFor(t, r, rows, Black)
}

// diagramBoardFor is diagramBoard with side toMove to move.
func diagramBoardFor(t *testing.T, r Rules, rows []string, toMove Stone) (*Board, Point) {
	t.Helper()
	b, err := NewBoard(r)
	if err != nil {
		t.Fatal(err)
	}
	var blacks, whites []Point
	var star Point
	for y, row := range rows {
		for x, c := range row {
			p := Point{x, y}
			switch c {
			case 'X':
				blacks = append(blacks, p)
			case 'O':
				whites = append(whites, p)
			case '*':
				star = p
			}
		}
	}
	extra := 0
	if toMove == White {
		extra = 1
	}
	used := map[Point]bool{star: true}
	for _, p := range append(append([]Point(nil), blacks...), whites...) {
		used[p] = true
	}
	for i := 0; len(whites)+extra < len(blacks); i++ {
		if p := (Point{r.Width - 1 - 3*(i%3), r.Height - 1 - 3*(i/3)}); !used[p] {
			whites = append(whites, p)
		}
	}
	if len(whites)+extra != len(blacks) {
		t.Fatalf("diagram has %d white stones for %d black", len(whites), len(blacks))
	}
	for i, p := range blacks {
		b.cells[p.Y*r.Width+p.X] = Black
		b.moves = append(b.moves, p)
		if i < len(whites) {
			q := whites[i]
			b.cells[q.Y*r.Width+q.X] = White
			b.moves = append(b.moves, q)
		}
	}
	return b, star
}

var foulNames = map[string]Foul{"none": NoFoul, "five": NoFoul, "double three": DoubleThree, "double four": DoubleFour, "overline": Overline}

func TestRenjuFouls(t *testing.T) {
	cases := loadFoulCases(t)
	if len(cases) < 20 {
		t.Fatalf("%d fixture cases, want at least 20", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, ok := foulNames[c.verdict]
			if !ok {
				t.Fatalf("unknown verdict %q", c.verdict)
			}
			b, p := diagramBoard(t, renju, c.rows)
			if got := b.Foul(p); got != want {
				t.Fatalf("Foul(%v) = %v, want %v\n%s", p, got, want, show(b))
			}
			before, n := show(b), b.MoveCount()
			err := b.Play(p)
			if want != NoFoul {
				var fe *FoulError
				if !errors.Is(err, ErrForbidden) || !errors.As(err, &fe) || fe.Foul != want || fe.Point != p {
					t.Fatalf("Play(%v) = %v, want a %v foul", p, err, want)
				}
				if show(b) != before || b.MoveCount() != n || b.Legal(p) {
					t.Fatalf("a refused foul changed the board or stays legal:\n%s", show(b))
				}
				return
			}
			if err != nil {
				t.Fatalf("Play(%v) = %v, want it allowed\n%s", p, err, before)
			}
			if won := b.Outcome().Status == Won; won != (c.verdict == "five") {
				t.Fatalf("after %v: outcome %+v, verdict %s\n%s", p, b.Outcome(), c.verdict, show(b))
			}
			// The same diagram without renju is no foul at all.
			free := renju
			free.Renju = false
			fb, _ := diagramBoard(t, free, c.rows)
			if err := fb.Play(p); err != nil {
				t.Fatalf("freestyle Play(%v) = %v", p, err)
			}
		})
	}
}

func TestRenjuWhiteIsFree(t *testing.T) {
	// White makes OO·OOO and fills the gap: an overline, which wins for
	// White under renju.
	blacks := []Point{{0, 10}, {3, 10}, {6, 10}, {9, 10}, {12, 10}, {0, 13}}
	whites := []Point{{1, 1}, {2, 1}, {4, 1}, {5, 1}, {6, 1}, {3, 1}}
	var moves []Point
	for i := range blacks {
		moves = append(moves, blacks[i], whites[i])
	}
	b := mustPlay(t, renju, moves...)
	if o := b.Outcome(); o.Status != Won || o.Winner != White || len(o.Line) != 6 {
		t.Fatalf("white's six: outcome %+v\n%s", o, show(b))
	}
}

func TestRenjuRules(t *testing.T) {
	r, ok := Preset("renju")
	if !ok || r != renju || r.String() != "renju" || r.Family() != FamilyRenju {
		t.Fatalf("Preset(renju) = %+v, %v (%q, %v)", r, ok, r.String(), r.Family())
	}
	for _, bad := range []Rules{{15, 15, 4, false, true}, {15, 15, 5, true, true}} {
		if err := bad.Validate(); !errors.Is(err, ErrBadRules) {
			t.Errorf("%+v.Validate() = %v, want ErrBadRules", bad, err)
		}
	}
	if s := (Rules{9, 9, 5, false, true}).String(); s != "9x9 k5 renju" {
		t.Errorf("String() = %q", s)
	}
}
