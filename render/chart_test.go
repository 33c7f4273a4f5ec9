package render

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// chartRatings returns n ratings of a seeded random walk from 1200.
func chartRatings(n int) []float64 {
	rng := rand.New(rand.NewPCG(3, 4))
	r := 1200.0
	var out []float64
	for range n {
		r += rng.Float64()*32 - 15
		out = append(out, r)
	}
	return out
}

// chartBars returns a bar for each family and level but tic-tac-toe hard.
func chartBars() []ChartBar {
	var bars []ChartBar
	i := 0
	for _, f := range []engine.Family{engine.FamilyTicTacToe, engine.FamilyNxN, engine.FamilyGomoku} {
		for _, lv := range []engine.Level{engine.Easy, engine.Medium, engine.Hard} {
			if f == engine.FamilyTicTacToe && lv == engine.Hard {
				continue
			}
			i++
			bars = append(bars, ChartBar{Label: ChartBarLabel(f, lv), Wins: 12 - i, Draws: i % 3, Losses: i * 2})
		}
	}
	return bars[:7]
}

// maxChart is the most bytes a chart may take.
const maxChart = 100 << 10

// TestChartGolden compares charts with testdata/chart_*.png (go test
// -update rewrites them) and checks their size.
func TestChartGolden(t *testing.T) {
	for _, tt := range []struct {
		name    string
		ratings []float64
		bars    []ChartBar
	}{
		{"empty", nil, nil},
		{"one", []float64{1216}, []ChartBar{{Label: ChartBarLabel(engine.FamilyGomoku, engine.Hard), Losses: 1}}},
		{"200", chartRatings(200), chartBars()},
	} {
		data, err := Chart(tt.ratings, tt.bars)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) >= maxChart {
			t.Errorf("%s: %d bytes, want under %d", tt.name, len(data), maxChart)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", tt.name, err)
		}
		if got, want := img.Bounds(), (image.Rectangle{Max: ChartSize(len(tt.bars))}); got != want {
			t.Errorf("%s: size %v, want %v", tt.name, got, want)
		}
		goldenPNG(t, "chart_"+tt.name, img)
	}
}

func TestChartLabelIsASCII(t *testing.T) {
	for in, want := range map[string]string{
		"gomoku hard":           "gomoku hard",
		"五子棋 hard":              "??? hard",
		"a very long label xyz": "a very long labe",
		"tab\there":             "tab?here",
	} {
		if got := chartLabel(in); got != want {
			t.Errorf("chartLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestChartCaption(t *testing.T) {
	for _, tt := range []struct {
		l       Lang
		ratings []float64
		bars    []ChartBar
		want    []string
	}{
		{English, nil, nil, []string{"No rated duel yet"}},
		{English, []float64{1216, 1240.4, 1230}, chartBars(), []string{"1230 now, 1240 at best. Rated duels: 3.", "blue wins"}},
		{Chinese, nil, chartBars(), []string{"还没有计分对战", "蓝色为胜"}},
		{Chinese, []float64{1184}, nil, []string{"当前 1184，最高 1184。计分对战：1 局。"}},
	} {
		got := ChartCaption(tt.l, tt.ratings, tt.bars)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s caption lacks %q:\n%s", tt.l, w, got)
			}
		}
		if (len(tt.bars) > 0) != strings.Contains(got, "\n") {
			t.Errorf("%s caption with %d bars:\n%s", tt.l, len(tt.bars), got)
		}
	}
}

// BenchmarkChart draws a chart of 200 ratings and 7 bars and reports the
// PNG's size.
func BenchmarkChart(b *testing.B) {
	ratings, bars := chartRatings(200), chartBars()
	var n int
	for b.Loop() {
		data, err := Chart(ratings, bars)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "png-bytes")
}
