package engine

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// Fitting the threat values (threatvalues.go):
//
//	go test ./engine -run TestFitThreatValues -fitthreats labels.json -v
//
// where labels.json holds an oracle's evaluations of positions, as
// cmd/gomocup-match -label writes them (see "Threat values" in
// docs/engine.md). The committed tables come from -fitbuilds -fitcells
// in freestyle and -fitrenju -fitcells under renju.
var (
	fitThreats = flag.String("fitthreats", "", "comma-separated label files (gomocup-match -label) to fit the threat values to (TestFitThreatValues)")
	fitRenju   = flag.Bool("fitrenju", false, "the labels are renju positions: fit a threat table for each side to move, and cell values for each colour")
	fitBuilds  = flag.Bool("fitbuilds", false, "fit the build-up values together with the threat values")
	fitCells   = flag.Bool("fitcells", false, "fit the cell values (cellValues…) together with the threat values")
	fitOut     = flag.String("fitout", "threatvalues.fit", "file TestFitThreatValues writes the fitted table's Go declaration to")
)

// Fitting constants: an oracle value v stands for a winning chance of
// σ(v/fitOracleScale) (Rapfi's scale), masks seen fewer than fitMinCount
// times keep the value 0, and a tenth of the positions is held out.
const (
	fitOracleScale = 200
	fitOracleCap   = 1000
	fitMinCount    = 50
	fitEpochs      = 3000
	fitStep        = 5
	// Cell classes seen in fewer than fitCellMinCount positions keep
	// their leafWeight value; the others move by what the fit moved them,
	// divided by fitCellShare and rounded toward the start, which played
	// better than the whole move (see "Cell values" in docs/engine.md).
	fitCellMinCount = 200
	fitCellShare    = 1.5
)

// threatSample is one labelled position as the fit sees it: the leaf
// value without the learned tables, the threat mask and the build-up mask
// (plus numMasks and numBuildMasks when the tables are per side and White
// is to move), the cell features, and the oracle's winning chance for the
// side to move.
type threatSample struct {
	base        float64
	mask, build int
	cells       []cellFeature
	target      float64
}

// cellFeature is what the cells of one class add to a sample's leaf
// value per unit of the class's cell value: the count of the side to
// move's empty cells of the class weighed evalOwn/10, less the
// opponent's weighed 5/2 (see openValue). Under per-side tables Black's
// and White's classes are apart: White's are numCellClasses on.
type cellFeature struct {
	class int32
	coef  float64
}

// cellStart returns the cell values the fit starts from, by class (for
// Black, then for White when perSide): the leafWeight of the class's
// patterns, which under renju add nothing for Black's fouls.
func cellStart(perSide bool) []float64 {
	tables := [][]int32{comboLeaf}
	if perSide {
		tables = [][]int32{comboLeafRenjuBlack, comboLeaf}
	}
	var vs []float64
	for _, t := range tables {
		start := make([]float64, numCellClasses)
		for i, c := range cellClass {
			start[c] = float64(t[i])
		}
		vs = append(vs, start...)
	}
	return vs
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// threatSampleOf returns the sample of the position after moves under r
// with the oracle's value eval, and false where the leaf never reaches the
// static value: an illegal record, or a position with a five to make or
// to stop or an unstoppable four to play.
func threatSampleOf(r Rules, moves []Point, eval int, perSide bool) (threatSample, bool) {
	b, err := Replay(r, moves)
	if err != nil || b.Over() {
		return threatSample{}, false
	}
	p := newPos(b)
	me, op := &p.levels[p.side-1], &p.levels[2-p.side]
	if me[tFive] > 0 || op[tFive] > 0 || me[tFlex] > 0 {
		return threatSample{}, false
	}
	th := noThreats()
	th.oppFlex = op[tFlex] > 0
	e := max(-fitOracleCap, min(fitOracleCap, eval))
	s := sampleOf(p, th, perSide)
	s.target = sigmoid(float64(e) / fitOracleScale)
	return s, true
}

// sampleOf returns the sample of p, whose threats are th, without its
// target.
func sampleOf(p *pos, th threats, perSide bool) threatSample {
	// The leaf value less the line potentials, which the cell features
	// carry.
	base := p.openValue(th) - p.score[p.side-1]*evalOwn/10 + p.score[2-p.side]*5/2
	m, bm := p.threatMask(), p.buildMask()
	if perSide && p.side == cWhite {
		m += numMasks
		bm += numBuildMasks
	}
	coef := map[int32]float64{}
	for _, i := range p.onBoard {
		if p.cells[i] != cEmpty {
			continue
		}
		for s, w := range [2]float64{float64(evalOwn) / 10, -2.5} {
			side := int(p.side-1) ^ s
			c := int32(cellClass[p.combo[side][i]])
			if perSide {
				c += int32(side * numCellClasses)
			}
			coef[c] += w
		}
	}
	var cells []cellFeature
	for _, c := range slices.Sorted(maps.Keys(coef)) {
		if coef[c] != 0 {
			cells = append(cells, cellFeature{c, coef[c]})
		}
	}
	return threatSample{base: float64(base), mask: m, build: bm, cells: cells}
}

// threatFit is the result of a fit: the threat, build-up and cell values,
// and the held-out error before and after.
type threatFit struct {
	values, builds, cells []int32
	cellFitted            []bool  // the fit moved the cell value of each class
	scale                 float64 // K: the leaf value v stands for σ(v/K)
	before, after         float64 // mean squared error of the winning chance, held out
	train, counted        int
}

// fitThreatValues fits a value for each threat mask (size of them) and,
// when buildSize is not 0, for each build-up mask (buildSize of them) to
// the samples: the leaf value plus the masks' values, through σ(·/K) with
// K fitted to the leaf value alone first, against the oracle's winning
// chance, by Adam on the mean squared error. The samples' cell features
// count at the values cells (by class, nil where the samples have none),
// which the fit moves too when fitCells is set. The split into training
// and held-out samples is seeded.
func fitThreatValues(samples []threatSample, size, buildSize int, cells []float64, fitCells bool, seed uint64) threatFit {
	ss := append([]threatSample(nil), samples...)
	rng := rand.New(rand.NewPCG(seed, 1))
	rng.Shuffle(len(ss), func(i, j int) { ss[i], ss[j] = ss[j], ss[i] })
	held, train := ss[:len(ss)/10], ss[len(ss)/10:]
	// w holds the threat values, then the build-up values, then the cell
	// values.
	nc := size + buildSize
	w := append(make([]float64, nc), cells...)
	value := func(s threatSample) float64 {
		v := s.base + w[s.mask]
		if buildSize > 0 {
			v += w[size+s.build]
		}
		for _, c := range s.cells {
			v += c.coef * w[nc+int(c.class)]
		}
		return v
	}
	loss := func(set []threatSample, k float64) float64 {
		sum := 0.0
		for _, s := range set {
			d := sigmoid(value(s)/k) - s.target
			sum += d * d
		}
		return sum / float64(max(1, len(set)))
	}
	k, best := 0.0, math.Inf(1)
	for x := 50.0; x <= 8000; x *= 1.05 {
		if l := loss(train, x); l < best {
			k, best = x, l
		}
	}
	f := threatFit{scale: k, before: loss(held, k), train: len(train)}
	// count is how many training samples each value is seen in; weight,
	// the mean size of a cell class's coefficient where seen, scales its
	// step so that every value moves the leaf value alike.
	count, weight := make([]int, len(w)), make([]float64, len(w))
	for _, s := range train {
		count[s.mask]++
		if buildSize > 0 {
			count[size+s.build]++
		}
		for _, c := range s.cells {
			count[nc+int(c.class)]++
			weight[nc+int(c.class)] += math.Abs(c.coef)
		}
	}
	step := make([]float64, len(w))
	for i := range w {
		switch {
		case i < nc && count[i] >= fitMinCount:
			step[i] = fitStep
		case i >= nc && fitCells && count[i] >= fitCellMinCount:
			step[i] = fitStep / max(1, weight[i]/float64(count[i]))
		}
	}
	m, v, g := make([]float64, len(w)), make([]float64, len(w)), make([]float64, len(w))
	for ep := 1; ep <= fitEpochs; ep++ {
		clear(g)
		for _, s := range train {
			y := sigmoid(value(s) / k)
			d := 2 * (y - s.target) * y * (1 - y) / k
			g[s.mask] += d
			if buildSize > 0 {
				g[size+s.build] += d
			}
			for _, c := range s.cells {
				g[nc+int(c.class)] += d * c.coef
			}
		}
		for i := range w {
			if step[i] == 0 {
				// Seen too rarely: a mask's value is 0, a cell's its start.
				if i < nc {
					w[i] = 0
				}
				continue
			}
			m[i] = 0.9*m[i] + 0.1*g[i]
			v[i] = 0.999*v[i] + 0.001*g[i]*g[i]
			mh := m[i] / (1 - math.Pow(0.9, float64(ep)))
			vh := v[i] / (1 - math.Pow(0.999, float64(ep)))
			if vh > 0 {
				w[i] -= step[i] * mh / math.Sqrt(vh)
			}
		}
	}
	vs := make([]int32, len(w))
	for i := range w {
		if step[i] != 0 {
			f.counted++
		}
		vs[i] = int32(math.Round(w[i]))
	}
	f.values, f.builds, f.cells = vs[:size], vs[size:nc], vs[nc:]
	for _, st := range step[nc:] {
		f.cellFitted = append(f.cellFitted, st != 0)
	}
	f.after = loss(held, k)
	return f
}

// readLabels reads label files (a JSON object from each position's moves,
// "x,y x,y …", to the oracle's {"eval": …}) into samples.
func readLabels(t *testing.T, names []string, r Rules, perSide bool) []threatSample {
	var ss []threatSample
	skipped := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var labels map[string]struct{ Eval int }
		if err := json.Unmarshal(data, &labels); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// In key order: the fit's held-out split depends on the order.
		for _, key := range slices.Sorted(maps.Keys(labels)) {
			moves, err := ParseMoves(key)
			if err != nil {
				t.Fatalf("%s: %q: %v", name, key, err)
			}
			if s, ok := threatSampleOf(r, moves, labels[key].Eval, perSide); ok {
				ss = append(ss, s)
			} else {
				skipped++
			}
		}
	}
	t.Logf("%d positions, %d left out (decided or illegal)", len(ss), skipped)
	return ss
}

func TestFitThreatValues(t *testing.T) {
	if *fitThreats == "" {
		t.Skip("fits the threat values to label files: -fitthreats labels.json")
	}
	r := Rules{Width: 15, Height: 15, K: 5, Renju: *fitRenju}
	size, buildSize, sides := numMasks, 0, 1
	if *fitRenju {
		sides = 2
	}
	size *= sides
	if *fitBuilds {
		buildSize = numBuildMasks * sides
	}
	ss := readLabels(t, strings.Split(*fitThreats, ","), r, *fitRenju)
	start := cellStart(*fitRenju)
	f := fitThreatValues(ss, size, buildSize, start, *fitCells, 40)
	t.Logf("K %.0f; held-out error %.5f before, %.5f after; %d of %d values fitted (masks seen %d times or more, cell classes %d) in %d training positions",
		f.scale, f.before, f.after, f.counted, size+buildSize+len(start), fitMinCount, fitCellMinCount, f.train)
	var sb strings.Builder
	name, length := "Freestyle", "numMasks"
	if *fitRenju {
		name, length = "Renju", "2 * numMasks" // Black's to move, then White's
	}
	writeTable(&sb, "threatValues"+name, length, f.values)
	if *fitBuilds {
		writeTable(&sb, "buildValues"+name, strings.Replace(length, "numMasks", "numBuildMasks", 1), f.builds)
	}
	if *fitCells {
		// What the fit moved each class, shared (fitCellShare).
		cells := make([]int32, len(f.cells))
		for i, v := range f.cells {
			cells[i] = int32(start[i]) + int32((float64(v)-start[i])/fitCellShare)
		}
		writeTable(&sb, "cellValues"+name, strings.Replace(length, "numMasks", "numCellClasses", 1), cells)
	}
	if err := os.WriteFile(*fitOut, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeTable writes the Go declaration of the table name, of length
// entries.
func writeTable(sb *strings.Builder, name, length string, values []int32) {
	fmt.Fprintf(sb, "var %s = [%s]int32{", name, length)
	for i, v := range values {
		if i%16 == 0 {
			sb.WriteString("\n\t")
		} else {
			sb.WriteString(" ")
		}
		fmt.Fprintf(sb, "%d,", v)
	}
	sb.WriteString("\n}\n")
}

// TestFitThreatValuesRecoversATable labels the positions of seeded random
// games with a known table on top of the leaf value and checks that the
// fit finds the table's values for the masks it sees often, and lowers the
// held-out error.
func TestFitThreatValuesRecoversATable(t *testing.T) {
	r := Rules{Width: 15, Height: 15, K: 5}
	truth := func(m int) float64 {
		v := 0.0
		if m&maskOwnDouble3 != 0 && m&(maskOppFour|maskOppFour3) == 0 {
			v += 800
		}
		if m&maskOppFlex != 0 {
			v -= 400
		}
		if m&maskOwnThree != 0 {
			v += 150
		}
		return v
	}
	// The oracle sees the leaf value with the leafWeight cell values at
	// scale 600, plus the table.
	start := cellStart(false)
	ss := randomSamples(t, r, 2, start, func(s threatSample, leaf float64) float64 {
		return sigmoid((leaf + truth(s.mask)) / 600)
	})
	f := fitThreatValues(ss, numMasks, 0, start, false, 1)
	if !(f.after < f.before/2) {
		t.Errorf("held-out error %.5f before, %.5f after: the fit did not find the table", f.before, f.after)
	}
	count := make([]int, numMasks)
	for _, s := range ss {
		count[s.mask]++
	}
	checked := 0
	for m, n := range count {
		if n < 150 {
			continue
		}
		checked++
		t.Logf("mask %09b: %d positions, fitted %d, true %.0f", m, n, f.values[m], truth(m)*f.scale/600)
		// Values are relative to the scale the fit found for the leaf.
		want := truth(m) * f.scale / 600
		if got := float64(f.values[m]); math.Abs(got-want) > 0.25*math.Abs(want)+40 {
			t.Errorf("mask %09b (%d positions): fitted %.0f, want about %.0f", m, n, got, want)
		}
	}
	if checked < 4 {
		t.Fatalf("only %d masks seen 150 times: the games do not test the fit", checked)
	}
}

// TestFitCellValuesRecoversATable labels the positions of seeded random
// games twice: with the leaf value at the leafWeight cell values, and with
// three classes moved by known amounts. It checks that the fit to the
// second labels lowers the held-out error, and, on the labels' scale,
// moves those three against the fit to the first by about the known
// amounts, and no other class by much: so it finds values of classes
// that are not alone in a position, with the leaf's scale fitted anew.
func TestFitCellValuesRecoversATable(t *testing.T) {
	r := Rules{Width: 15, Height: 15, K: 5}
	start := cellStart(false)
	classOf := func(ps ...uint8) int {
		i := 0
		for d, pt := range ps {
			i += int(pt) * int(comboWeight[d])
		}
		return int(cellClass[i])
	}
	moved := map[int]float64{
		classOf(patOne, patOne, patTwo, patTwoO):   60,
		classOf(patOne, patOne, patOne, patThree):  -60,
		classOf(patDead, patOne, patTwoO, patTwoO): 80,
	}
	truth := slices.Clone(start)
	for c, d := range moved {
		truth[c] += d
	}
	fit := func(values []float64) threatFit {
		ss := randomSamples(t, r, 3, values, func(_ threatSample, leaf float64) float64 { return sigmoid(leaf / 600) })
		return fitThreatValues(ss, numMasks, 0, start, true, 1)
	}
	control, f := fit(start), fit(truth)
	if !(f.after < f.before/2) {
		t.Errorf("held-out error %.5f before, %.5f after: the fit did not find the cell values", f.before, f.after)
	}
	// Each fit's values are relative to the scale it found for the leaf;
	// the labels' is 600.
	t.Logf("K %.0f, control's %.0f", f.scale, control.scale)
	checked := 0
	for c, v := range f.cells {
		if !f.cellFitted[c] || !control.cellFitted[c] {
			continue
		}
		checked++
		got := float64(v)*600/f.scale - float64(control.cells[c])*600/control.scale
		d, ok := moved[c]
		if ok {
			t.Logf("class %d: start %.0f, moved by %.0f, fitted %+.0f against the control", c, start[c], d, got)
		}
		// Moved ones within half their move; the others within 30 % of
		// their value and 25: the scales found are not exact.
		tol := 0.3*math.Abs(start[c]) + 25
		if ok {
			tol = 0.5 * math.Abs(d)
		}
		if math.Abs(got-d) > tol {
			t.Errorf("class %d moved by %.0f: fitted %+.0f against the control", c, d, got)
		}
	}
	if checked < 20 || !f.cellFitted[slices.Collect(maps.Keys(moved))[0]] {
		t.Fatalf("%d classes fitted: the games do not test the fit", checked)
	}
}

// randomSamples returns the samples of the positions of 300 seeded random
// games under r (PCG(40, stream)) where the leaf reaches the static value,
// each labelled by target from the sample and its leaf value at the cell
// values cells (by class).
func randomSamples(t *testing.T, r Rules, stream uint64, cells []float64, target func(s threatSample, leaf float64) float64) []threatSample {
	rng := rand.New(rand.NewPCG(40, stream))
	var ss []threatSample
	randomGames(t, r, rng, 300, 20, func(game, ply int, p *pos, ms []move, th threats) {
		if ply < 3 || th.myFive >= 0 || th.oppFive >= 0 || th.myFlex >= 0 {
			return
		}
		s := sampleOf(p, th, false)
		leaf := s.base
		for _, c := range s.cells {
			leaf += c.coef * cells[c.class]
		}
		s.target = target(s, leaf)
		ss = append(ss, s)
	})
	return ss
}
