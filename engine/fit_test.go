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
// docs/engine.md).
var (
	fitThreats = flag.String("fitthreats", "", "comma-separated label files (gomocup-match -label) to fit the threat values to (TestFitThreatValues)")
	fitRenju   = flag.Bool("fitrenju", false, "the labels are renju positions: fit a table for each side to move")
	fitBuilds  = flag.Bool("fitbuilds", false, "fit the build-up values together with the threat values")
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
	// fitBuildShare divides the fitted build-up values before they are
	// written: halved, they beat the values as fitted in self-play (see
	// "Build-ups" in docs/engine.md).
	fitBuildShare = 2
)

// threatSample is one labelled position as the fit sees it: the leaf
// value without the threat values, the threat mask and the build-up mask
// (plus numMasks and numBuildMasks when the tables are per side and White
// is to move), and the oracle's winning chance for the side to move.
type threatSample struct {
	base        float64
	mask, build int
	target      float64
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
	base := p.openValue(th)
	m, bm := p.threatMask(), p.buildMask()
	if perSide && p.side == cWhite {
		m += numMasks
		bm += numBuildMasks
	}
	e := max(-fitOracleCap, min(fitOracleCap, eval))
	return threatSample{float64(base), m, bm, sigmoid(float64(e) / fitOracleScale)}, true
}

// threatFit is the result of a fit: the threat and build-up values, and
// the held-out error before and after.
type threatFit struct {
	values, builds []int32
	scale          float64 // K: the leaf value v stands for σ(v/K)
	before, after  float64 // mean squared error of the winning chance, held out
	train, counted int
}

// fitThreatValues fits a value for each threat mask (size of them) and,
// when buildSize is not 0, for each build-up mask (buildSize of them) to
// the samples: the leaf value plus the masks' values, through σ(·/K) with
// K fitted to the leaf value alone first, against the oracle's winning
// chance, by Adam on the mean squared error. The split into training and
// held-out samples is seeded.
func fitThreatValues(samples []threatSample, size, buildSize int, seed uint64) threatFit {
	ss := append([]threatSample(nil), samples...)
	rng := rand.New(rand.NewPCG(seed, 1))
	rng.Shuffle(len(ss), func(i, j int) { ss[i], ss[j] = ss[j], ss[i] })
	held, train := ss[:len(ss)/10], ss[len(ss)/10:]
	// w holds the threat values, then the build-up values.
	w := make([]float64, size+buildSize)
	value := func(s threatSample) float64 {
		v := s.base + w[s.mask]
		if buildSize > 0 {
			v += w[size+s.build]
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
	count := make([]int, len(w))
	for _, s := range train {
		count[s.mask]++
		if buildSize > 0 {
			count[size+s.build]++
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
		}
		for i := range w {
			m[i] = 0.9*m[i] + 0.1*g[i]
			v[i] = 0.999*v[i] + 0.001*g[i]*g[i]
			mh := m[i] / (1 - math.Pow(0.9, float64(ep)))
			vh := v[i] / (1 - math.Pow(0.999, float64(ep)))
			if vh > 0 {
				w[i] -= fitStep * mh / math.Sqrt(vh)
			}
		}
	}
	vs := make([]int32, len(w))
	for i := range w {
		if count[i] < fitMinCount {
			w[i] = 0
			continue
		}
		f.counted++
		vs[i] = int32(math.Round(w[i]))
	}
	f.values, f.builds = vs[:size], vs[size:]
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
	f := fitThreatValues(ss, size, buildSize, 40)
	t.Logf("K %.0f; held-out error %.5f before, %.5f after; %d of %d masks seen %d times or more in %d training positions",
		f.scale, f.before, f.after, f.counted, size+buildSize, fitMinCount, f.train)
	var sb strings.Builder
	name, length := "Freestyle", "numMasks"
	if *fitRenju {
		name, length = "Renju", "2 * numMasks" // Black's to move, then White's
	}
	writeTable(&sb, "threatValues"+name, length, f.values)
	if *fitBuilds {
		halved := make([]int32, len(f.builds))
		for i, v := range f.builds {
			halved[i] = int32(math.Round(float64(v) / fitBuildShare))
		}
		writeTable(&sb, "buildValues"+name, strings.Replace(length, "numMasks", "numBuildMasks", 1), halved)
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
	rng := rand.New(rand.NewPCG(40, 2))
	var ss []threatSample
	randomGames(t, r, rng, 300, 20, func(game, ply int, p *pos, ms []move, th threats) {
		if ply < 3 || th.myFive >= 0 || th.oppFive >= 0 || th.myFlex >= 0 {
			return
		}
		s := threatSample{base: float64(p.openValue(th)), mask: p.threatMask()}
		// The oracle sees the leaf value at scale 600, plus the table.
		s.target = sigmoid((s.base + truth(s.mask)) / 600)
		ss = append(ss, s)
	})
	f := fitThreatValues(ss, numMasks, 0, 1)
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
