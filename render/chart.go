package render

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"

	"golang.org/x/image/font"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// The chart is a card on paper, so that it reads the same in a dark and
// a light theme. Above, when the player has rated duels, the duel rating
// after each of them as a blue line, with the rating on the left and the
// duels' numbers below. Under it, for each board family and AI level
// with games, the line of /stats in the user's language ("Gomoku vs AI
// (hard): 3 won, 5 lost, 1 drawn") over a bar of the same results in the
// same order: blue won, red lost, yellow drawn. Last, notes: the
// player's ratings against the AI, as /stats gives them. It draws with
// the board
// picture's palette, and writes in the pictures' textFace. ChartCaption
// says the rest.

// ChartBar is one bar of Chart: the results of the games against the AI
// on one family of boards at one level.
type ChartBar struct {
	Family              engine.Family
	Level               engine.Level
	Wins, Draws, Losses int
}

// Total returns the number of games of the bar.
func (b ChartBar) Total() int { return b.Wins + b.Draws + b.Losses }

// chartBarLabel returns the words over bar b in language l: the line of
// /stats for its family and level.
func chartBarLabel(l Lang, b ChartBar) string {
	return T(l, MsgStatsLine, FamilyName(l, b.Family), T(l, MsgAI, LevelName(l, b.Level)), b.Wins, b.Losses, b.Draws)
}

// ErrEmptyChart is returned by Chart when it has nothing to draw: no
// rating and no bar.
var ErrEmptyChart = errors.New("render: chart: nothing to draw")

// The geometry of the chart, in pixels.
const (
	chartWidth = 720
	chartPad   = 24
	// chartHead is the height of the rating panel's title.
	chartHead  = 36
	chartPlotH = 200
	// chartAxisH is the height of the duels' numbers under the plot.
	chartAxisH = 36
	chartAxisW = 60
	// chartGap parts the rating panel from the bars.
	chartGap = 16
	// chartRowH is the height of a bar with its words over it.
	chartRowH = 56
	chartBarH = 20
	// chartTextSize is the size of the chart's words.
	chartTextSize = 17
	// chartDots is the most ratings drawn with a dot each.
	chartDots = 40
	// chartNoteH is the height of a line of notes under the bars.
	chartNoteH = 30
)

// ChartSize returns the size in pixels of the chart of nRatings ratings,
// nBars bars and nNotes lines of notes.
func ChartSize(nRatings, nBars, nNotes int) image.Point {
	h := 2 * chartPad
	if nRatings > 0 {
		h += chartHead + chartPlotH + chartAxisH
	}
	if nRatings > 0 && nBars > 0 {
		h += chartGap
	}
	return image.Point{X: chartWidth, Y: h + nBars*chartRowH + nNotes*chartNoteH}
}

// Chart returns a PNG of a player's progress in language l: ratings are
// the duel rating after each rated game, oldest first, bars the results
// against the AI, drawn in order, and notes lines written under them
// (the ratings against the AI). Without ratings it has no rating panel;
// without ratings and bars it is ErrEmptyChart. The picture is
// ChartSize(len(ratings), len(bars), len(notes)), a few tens of
// kilobytes.
func Chart(l Lang, ratings []float64, bars []ChartBar, notes []string) ([]byte, error) {
	img, _, err := drawChart(l, ratings, bars, notes)
	if err != nil {
		return nil, err
	}
	return encodePNG(img, "chart")
}

// drawChart draws Chart and returns the texts it wrote, in order.
func drawChart(l Lang, ratings []float64, bars []ChartBar, notes []string) (*image.Paletted, []string, error) {
	if len(ratings) == 0 && len(bars) == 0 {
		return nil, nil, ErrEmptyChart
	}
	face, err := newTextFace(chartTextSize)
	if err != nil {
		return nil, nil, fmt.Errorf("render: chart: %w", err)
	}
	defer face.Close()
	size := ChartSize(len(ratings), len(bars), len(notes))
	c := canvas{image.NewPaletted(image.Rectangle{Max: size}, pal)}
	c.rect(c.img.Rect, cPaper)
	c.frame(c.img.Rect, 2, cLine, 0.5)
	d := &chartPen{Drawer: &font.Drawer{Dst: c.img, Src: image.NewUniform(baseColors[cLine]), Face: face}}
	top := chartPad
	if len(ratings) > 0 {
		drawRatings(c, d, l, ratings)
		top += chartHead + chartPlotH + chartAxisH + chartGap
	}
	drawBars(c, d, l, bars, top)
	top += len(bars) * chartRowH
	for i, n := range notes {
		d.left(n, chartPad, top+i*chartNoteH+chartNoteH/2)
	}
	return c.img, d.texts, nil
}

// drawRatings draws the rating panel at the top of the chart: its title,
// the rating line and its axes.
func drawRatings(c canvas, d *chartPen, l Lang, ratings []float64) {
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
	d.left(T(l, MsgChartAxis), chartPad, chartPad+chartHead/2-6)
	for t := lo; t <= hi+step/2; t += step {
		y := int(math.Round(yOf(t)))
		c.blendRect(image.Rect(plot.Min.X, y, plot.Max.X, y+1), cLine, 0.25)
		d.right(strconv.Itoa(int(t)), plot.Min.X-10, y)
	}
	c.rect(image.Rect(plot.Min.X, plot.Max.Y, plot.Max.X, plot.Max.Y+2), cLine)
	n := len(ratings)
	xOf := func(i int) float64 {
		if n == 1 {
			return float64(plot.Min.X+plot.Max.X) / 2
		}
		return float64(plot.Min.X) + float64(i)/float64(n-1)*float64(plot.Dx())
	}
	d.centre("1", int(xOf(0)), plot.Max.Y+18)
	if n > 1 {
		d.centre(strconv.Itoa(n), int(xOf(n-1)), plot.Max.Y+18)
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
	d.left(strconv.Itoa(int(math.Round(last))), int(xOf(n-1))+12, int(yOf(last)))
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

// drawBars draws the bars of results against the AI from y top down, each
// under its words (chartBarLabel), won, lost and drawn from the left.
func drawBars(c canvas, d *chartPen, l Lang, bars []ChartBar, top int) {
	x0, x1 := chartPad, chartWidth-chartPad
	most := 1
	for _, b := range bars {
		most = max(most, b.Total())
	}
	for i, b := range bars {
		row := top + i*chartRowH
		d.left(chartBarLabel(l, b), x0, row+chartTextSize/2+2)
		barTop := row + chartTextSize + 10
		x := float64(x0)
		for _, seg := range []struct {
			n   int
			col uint8
		}{{b.Wins, cBlue}, {b.Losses, cRed}, {b.Draws, cYellow}} {
			w := float64(max(0, seg.n)) / float64(most) * float64(x1-x0)
			c.rect(image.Rect(int(math.Round(x)), barTop, int(math.Round(x+w)), barTop+chartBarH), seg.col)
			x += w
		}
	}
}

// chartPen writes the texts of a chart and keeps them, in order.
type chartPen struct {
	*font.Drawer
	texts []string
}

// centre writes s centred on midX, midY.
func (p *chartPen) centre(s string, midX, midY int) {
	p.texts = append(p.texts, s)
	centreText(p.Drawer, s, midX, midY)
}

// left writes s starting at x, centred on midY.
func (p *chartPen) left(s string, x, midY int) {
	p.centre(s, x+p.MeasureString(s).Round()/2, midY)
}

// right writes s ending at x, centred on midY.
func (p *chartPen) right(s string, x, midY int) {
	p.centre(s, x-p.MeasureString(s).Round()/2, midY)
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

// The messages of the chart: its title and those sent with it.
const (
	// MsgChartAxis is the title of the rating panel.
	MsgChartAxis Key = "chart_axis"
	// MsgChartRating says the duel rating now, the highest and how many
	// rated duels the line has.
	MsgChartRating Key = "chart_rating"
	// MsgChartNoRating replaces MsgChartRating before any rated duel.
	MsgChartNoRating Key = "chart_no_rating"
	// MsgChartBars explains the bars and their colours.
	MsgChartBars Key = "chart_bars"
	// MsgSentRecently answers ▶️, 📋 or 📈 tapped again within
	// session.SendGap: what they send went a moment ago.
	MsgSentRecently Key = "sent_recently"
	// MsgChartEmpty answers 📈 when there is nothing to draw.
	MsgChartEmpty Key = "chart_empty"
)

// ChartCaption returns the text to send with Chart(l, ratings, bars) in
// language l: the rating now and at best, and what the bars' colours
// mean.
func ChartCaption(l Lang, ratings []float64, bars []ChartBar) string {
	var s string
	if len(ratings) == 0 {
		s = T(l, MsgChartNoRating)
	} else {
		best := float64(session.InitialRating) // where every player starts
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
