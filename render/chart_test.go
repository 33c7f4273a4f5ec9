package render

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"strconv"
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
			bars = append(bars, ChartBar{Family: f, Level: lv, Wins: 12 - i, Draws: i % 3, Losses: i * 2})
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
		l       Lang
		ratings []float64
		bars    []ChartBar
	}{
		{"one", English, []float64{1216}, []ChartBar{{Family: engine.FamilyGomoku, Level: engine.Hard, Losses: 1}}},
		{"bars", English, nil, chartBars()[:3]},
		{"200", English, chartRatings(200), chartBars()},
		{"200_zh", Chinese, chartRatings(200), chartBars()},
	} {
		data, err := Chart(tt.l, tt.ratings, tt.bars, nil)
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
		if got, want := img.Bounds(), (image.Rectangle{Max: ChartSize(len(tt.ratings), len(tt.bars), 0)}); got != want {
			t.Errorf("%s: size %v, want %v", tt.name, got, want)
		}
		goldenPNG(t, "chart_"+tt.name, img)
	}
}

// TestChartLeavesOutWhatHasNoData checks that a chart has a rating panel
// only with ratings, and that nothing draws no chart.
func TestChartLeavesOutWhatHasNoData(t *testing.T) {
	bars := chartBars()[:2]
	full, _, err := drawChart(English, chartRatings(3), bars, nil)
	if err != nil {
		t.Fatal(err)
	}
	bare, texts, err := drawChart(English, nil, bars, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, most := bare.Bounds().Dy(), full.Bounds().Dy()-chartPlotH; got > most {
		t.Errorf("the chart without ratings is %d pixels high, want at most %d: no rating panel", got, most)
	}
	for _, s := range texts {
		if _, err := strconv.Atoi(s); err == nil {
			t.Errorf("the chart without ratings writes %q, a rating or a game number: texts %q", s, texts)
		}
	}
	if data, err := Chart(English, nil, nil, nil); !errors.Is(err, ErrEmptyChart) {
		t.Errorf("Chart of nothing: %d bytes, error %v; want ErrEmptyChart", len(data), err)
	}
}

// TestChartSpeaksTheUsersLanguage checks the chart's texts: the words of
// /stats in the user's language, in a font that has their letters.
func TestChartSpeaksTheUsersLanguage(t *testing.T) {
	bars := []ChartBar{
		{Family: engine.FamilyNxN, Level: engine.Medium, Wins: 1, Draws: 3, Losses: 2},
		{Family: engine.FamilyTicTacToe, Level: engine.Easy, Wins: 4},
	}
	for l, want := range map[Lang][]string{
		English: {"Duel rating", "Other boards vs AI (medium): 1 won, 2 lost, 3 drawn", "Tic-tac-toe vs AI (easy): 4 won, 0 lost, 0 drawn"},
		Chinese: {"对战积分", "其他棋盘 对 AI（中等）：胜 1，负 2，平 3", "井字棋 对 AI（简单）：胜 4，负 0，平 0"},
	} {
		_, texts, err := drawChart(l, []float64{1216, 1230}, bars, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !slices.Contains(texts, w) {
				t.Errorf("%s chart lacks %q: %q", l, w, texts)
			}
		}
		for _, s := range texts {
			if !canDraw(s) {
				t.Errorf("%s chart writes %q, with letters the font lacks", l, s)
			}
		}
	}
}

// TestChartBarsGoWonLostDrawn checks that the bars' colours come in the
// order of the texts: won (blue), lost (red), drawn (yellow).
func TestChartBarsGoWonLostDrawn(t *testing.T) {
	img, _, err := drawChart(English, nil, []ChartBar{{Family: engine.FamilyGomoku, Level: engine.Easy, Wins: 1, Draws: 1, Losses: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		var order []uint8
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := img.ColorIndexAt(x, y); (c == cBlue || c == cRed || c == cYellow) && !slices.Contains(order, c) {
				order = append(order, c)
			}
		}
		if len(order) == 3 {
			if want := []uint8{cBlue, cRed, cYellow}; !slices.Equal(order, want) {
				t.Errorf("row %d: colours %v, want %v (won, lost, drawn)", y, order, want)
			}
			return
		}
	}
	t.Fatal("no row has the three colours of a bar")
}

func TestChartCaption(t *testing.T) {
	for _, tt := range []struct {
		l       Lang
		ratings []float64
		bars    []ChartBar
		want    []string
	}{
		{English, nil, nil, []string{"No rated duel yet"}},
		{English, []float64{1216, 1240.4, 1230}, chartBars(), []string{"1230 now, 1240 at best. Rated duels: 3.", "blue for won, red for lost, yellow for drawn"}},
		{Chinese, nil, chartBars(), []string{"还没有计分对战", "蓝色为胜，红色为负，黄色为平"}},
		{Chinese, []float64{1184}, nil, []string{"当前 1184，最高 1200。计分对战：1 局。"}},
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
		data, err := Chart(English, ratings, bars, nil)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "png-bytes")
}

// TestChartWritesTheRatingsAgainstTheAI checks that the chart ends with
// its notes, the ratings against the AI as /stats words them, in Chinese
// too, each a line of its own.
func TestChartWritesTheRatingsAgainstTheAI(t *testing.T) {
	bars := []ChartBar{{Family: engine.FamilyGomoku, Level: engine.Medium, Wins: 2, Losses: 1}}
	for _, l := range Langs {
		note := T(l, MsgStatsVsAI, FamilyName(l, engine.FamilyGomoku), 1650, 90, 3)
		img, texts, err := drawChart(l, nil, bars, []string{note})
		if err != nil {
			t.Fatal(err)
		}
		if len(texts) == 0 || texts[len(texts)-1] != note || !canDraw(note) {
			t.Errorf("%s: the chart wrote %q, want %q last, in letters it has", l, texts, note)
		}
		if got, want := img.Bounds().Size(), ChartSize(0, 1, 1); got != want {
			t.Errorf("%s: chart of %v, want %v", l, got, want)
		}
	}
}
