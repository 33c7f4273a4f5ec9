package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// The chart is a card on paper, so that it reads the same in a dark and
// a light theme: above, the duel rating after each rated game as a blue
// line, with the rating on the left and the game numbers below; under it,
// one bar per board family and AI level, blue wins, yellow draws and red
// losses, the numbers at its right. It draws with the board picture's
// palette and font; its only words are the labels of the bars, ASCII
// because the font has no Chinese. ChartCaption says the rest in the
// user's language.

// ChartBar is one bar of Chart: the results of the games against the AI
// on one family of boards at one level.
type ChartBar struct {
	// Label names the bar, such as "gomoku hard" (ChartBarLabel); it is
	// drawn in ASCII, any other letter as "?", and cut at chartLabelMax.
	Label               string
	Wins, Draws, Losses int
}

// Total returns the number of games of the bar.
func (b ChartBar) Total() int { return b.Wins + b.Draws + b.Losses }

// ChartBarLabel returns the label of the bar of games against the AI at
// level lv on family f: "ttt easy", "nxn medium", "gomoku hard".
func ChartBarLabel(f engine.Family, lv engine.Level) string {
	return string(f) + " " + lv.String()
}

// The geometry of the chart, in pixels.
const (
	chartWidth    = 720
	chartPad      = 24
	chartHead     = 36
	chartPlotH    = 200
	chartRowH     = 34
	chartBarH     = 20
	chartLabelW   = 170
	chartCountW   = 120
	chartAxisW    = 60
	chartLabelMax = 16
	// chartDots is the most ratings drawn with a dot each.
	chartDots = 40
)

// ChartSize returns the size in pixels of the chart of nBars bars.
func ChartSize(nBars int) image.Point {
	h := chartPad + chartHead + chartPlotH + 36 + chartPad
	if nBars > 0 {
		h += 32 + nBars*chartRowH
	}
	return image.Point{X: chartWidth, Y: h}
}

// Chart returns a PNG of a player's progress: ratings are the duel
// rating after each rated game, oldest first (an empty slice draws the
// axes around session.InitialRating), and bars the results against the
// AI, drawn in order. The picture is ChartSize(len(bars)), a few tens of
// kilobytes.
func Chart(ratings []float64, bars []ChartBar) ([]byte, error) {
	f, err := labelFont()
	if err != nil {
		return nil, fmt.Errorf("render: chart font: %w", err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 17, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: chart font: %w", err)
	}
	defer face.Close()
	size := ChartSize(len(bars))
	c := canvas{image.NewPaletted(image.Rectangle{Max: size}, pal)}
	c.rect(c.img.Rect, cPaper)
	c.frame(c.img.Rect, 2, cLine, 0.5)
	d := &font.Drawer{Dst: c.img, Src: image.NewUniform(baseColors[cLine]), Face: face}
	drawRatings(c, d, ratings)
	if len(bars) > 0 {
		drawBars(c, d, bars, chartPad+chartHead+chartPlotH+36)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.img); err != nil {
		return nil, fmt.Errorf("render: chart: %w", err)
	}
	return buf.Bytes(), nil
}

// drawRatings draws the rating line with its axes at the top of the
// chart.
func drawRatings(c canvas, d *font.Drawer, ratings []float64) {
	plot := image.Rect(chartPad+chartAxisW, chartPad+chartHead, chartWidth-chartPad-chartAxisW, chartPad+chartHead+chartPlotH)
	lo, hi := float64(session.InitialRating), float64(session.InitialRating)
	for _, r := range ratings {
		lo, hi = min(lo, r), max(hi, r)
	}
	step := tickStep(hi - lo)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi-lo < 2*step {
		lo, hi = lo-step, hi+step
	}
	yOf := func(r float64) float64 {
		return float64(plot.Max.Y) - (r-lo)/(hi-lo)*float64(plot.Dy())
	}
	rightText(d, "Elo", plot.Min.X-10, chartPad+6)
	for t := lo; t <= hi+step/2; t += step {
		y := int(math.Round(yOf(t)))
		c.blendRect(image.Rect(plot.Min.X, y, plot.Max.X, y+1), cLine, 0.25)
		rightText(d, strconv.Itoa(int(t)), plot.Min.X-10, y)
	}
	c.rect(image.Rect(plot.Min.X, plot.Max.Y, plot.Max.X, plot.Max.Y+2), cLine)
	n := len(ratings)
	if n == 0 {
		return
	}
	xOf := func(i int) float64 {
		if n == 1 {
			return float64(plot.Min.X+plot.Max.X) / 2
		}
		return float64(plot.Min.X) + float64(i)/float64(n-1)*float64(plot.Dx())
	}
	centreText(d, "1", int(xOf(0)), plot.Max.Y+18)
	if n > 1 {
		centreText(d, strconv.Itoa(n), int(xOf(n-1)), plot.Max.Y+18)
	}
	for i := 1; i < n; i++ {
		c.bar(xOf(i-1), yOf(ratings[i-1]), xOf(i), yOf(ratings[i]), 3, cBlue)
	}
	if n <= chartDots {
		for i, r := range ratings {
			c.disc(xOf(i), yOf(r), 4, cBlue)
		}
	}
	last := ratings[n-1]
	c.disc(xOf(n-1), yOf(last), 6, cBlue)
	leftText(d, strconv.Itoa(int(math.Round(last))), int(xOf(n-1))+12, int(yOf(last)))
}

// tickStep returns the step between the rating axis's ticks for a range
// of ratings: a round number giving two to five steps.
func tickStep(span float64) float64 {
	for _, s := range []float64{10, 20, 25, 50, 100, 200, 250, 500} {
		if span <= 5*s {
			return s
		}
	}
	return 1000
}

// drawBars draws the bars of results against the AI from y top down.
func drawBars(c canvas, d *font.Drawer, bars []ChartBar, top int) {
	x0 := chartPad + chartLabelW
	x1 := chartWidth - chartPad - chartCountW
	// The legend: W, D and L beside squares of their colours.
	for i, k := range []struct {
		s   string
		col uint8
	}{{"W", cBlue}, {"D", cYellow}, {"L", cRed}} {
		x := x0 + i*60
		c.rect(image.Rect(x, top+4, x+16, top+20), k.col)
		leftText(d, k.s, x+22, top+12)
	}
	most := 1
	for _, b := range bars {
		most = max(most, b.Total())
	}
	for i, b := range bars {
		mid := top + 32 + i*chartRowH + chartRowH/2
		leftText(d, chartLabel(b.Label), chartPad, mid)
		x := float64(x0)
		for _, seg := range []struct {
			n   int
			col uint8
		}{{b.Wins, cBlue}, {b.Draws, cYellow}, {b.Losses, cRed}} {
			w := float64(max(0, seg.n)) / float64(most) * float64(x1-x0)
			c.rect(image.Rect(int(math.Round(x)), mid-chartBarH/2, int(math.Round(x+w)), mid+chartBarH/2), seg.col)
			x += w
		}
		rightText(d, fmt.Sprintf("%d-%d-%d", b.Wins, b.Draws, b.Losses), chartWidth-chartPad, mid)
	}
}

// chartLabel returns the label drawn for s: ASCII, any other letter as
// "?", at most chartLabelMax letters.
func chartLabel(s string) string {
	var sb strings.Builder
	n := 0
	for _, r := range s {
		if n == chartLabelMax {
			break
		}
		if r < ' ' || r > '~' {
			r = '?'
		}
		sb.WriteRune(r)
		n++
	}
	return sb.String()
}

// leftText writes s with d starting at x, centred on midY.
func leftText(d *font.Drawer, s string, x, midY int) {
	centreText(d, s, x+d.MeasureString(s).Round()/2, midY)
}

// rightText writes s with d ending at x, centred on midY.
func rightText(d *font.Drawer, s string, x, midY int) {
	centreText(d, s, x-d.MeasureString(s).Round()/2, midY)
}

// blendRect lays fg with coverage a over a rectangle.
func (c canvas) blendRect(r image.Rectangle, fg uint8, a float64) {
	r = r.Intersect(c.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c.paint(x, y, fg, a)
		}
	}
}

// frame lays fg with coverage a over a border of width w inside r.
func (c canvas) frame(r image.Rectangle, w int, fg uint8, a float64) {
	c.blendRect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), fg, a)
	c.blendRect(image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), fg, a)
	c.blendRect(image.Rect(r.Min.X, r.Min.Y+w, r.Min.X+w, r.Max.Y-w), fg, a)
	c.blendRect(image.Rect(r.Max.X-w, r.Min.Y+w, r.Max.X, r.Max.Y-w), fg, a)
}

// The messages sent with the chart.
const (
	// MsgChartRating says the duel rating now, the highest and how many
	// rated duels the line has.
	MsgChartRating Key = "chart_rating"
	// MsgChartNoRating replaces MsgChartRating before any rated duel.
	MsgChartNoRating Key = "chart_no_rating"
	// MsgChartBars explains the bars and their colours.
	MsgChartBars Key = "chart_bars"
)

// ChartCaption returns the text to send with Chart(ratings, bars) in
// language l: the rating now and at best, and what the bars' colours
// mean.
func ChartCaption(l Lang, ratings []float64, bars []ChartBar) string {
	var s string
	if len(ratings) == 0 {
		s = T(l, MsgChartNoRating)
	} else {
		best := ratings[0]
		for _, r := range ratings {
			best = max(best, r)
		}
		s = T(l, MsgChartRating, int(math.Round(ratings[len(ratings)-1])), int(math.Round(best)), len(ratings))
	}
	if len(bars) > 0 {
		s += "\n" + T(l, MsgChartBars)
	}
	return s
}
