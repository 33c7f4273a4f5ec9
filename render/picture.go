package render

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// The picture is a paletted PNG: a few flat colours and three blends of
// every pair of them for smooth edges, which keeps a 19×19 board small
// and quick to encode. Gomoku boards are wood with stones on the line
// crossings; tic-tac-toe boards are paper with ❌ and ⭕ in cells. Column
// letters run along the top and row numbers down the left, as on the text
// board; the last move has a red dot (a yellow cell in tic-tac-toe) and a
// red bar runs through a winning line; a hint is a blue target.

// Base colours of the picture's palette.
const (
	cWood = iota
	cPaper
	cLine
	cBlack
	cWhite
	cRed
	cBlue
	cYellow
	nBase
)

var baseColors = [nBase]color.RGBA{
	cWood:   {222, 184, 108, 255},
	cPaper:  {248, 246, 240, 255},
	cLine:   {70, 50, 30, 255},
	cBlack:  {24, 24, 24, 255},
	cWhite:  {250, 250, 250, 255},
	cRed:    {220, 40, 40, 255},
	cBlue:   {40, 100, 210, 255},
	cYellow: {255, 222, 110, 255},
}

// blendLevels is how many blends between two base colours the palette
// holds, for edge pixels covered a quarter, half and three quarters.
const blendLevels = 3

// pal is the palette, and mix[fg][i][k] the palette index of colour fg
// laid with coverage (k+1)/(blendLevels+1) over palette colour i.
var (
	pal       color.Palette
	mix       [nBase][][blendLevels]uint8
	labelFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) })
)

func init() {
	for _, c := range baseColors {
		pal = append(pal, c)
	}
	for a := range nBase {
		for b := a + 1; b < nBase; b++ {
			for k := 1; k <= blendLevels; k++ {
				pal = append(pal, blend(baseColors[a], baseColors[b], float64(k)/(blendLevels+1)))
			}
		}
	}
	for fg := range nBase {
		mix[fg] = make([][blendLevels]uint8, len(pal))
		for i, c := range pal {
			for k := range blendLevels {
				mix[fg][i][k] = uint8(pal.Index(blend(baseColors[fg], c.(color.RGBA), float64(k+1)/(blendLevels+1))))
			}
		}
	}
}

// blend returns fg laid over bg with coverage a.
func blend(fg, bg color.RGBA, a float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*a + float64(y)*(1-a))) }
	return color.RGBA{m(fg.R, bg.R), m(fg.G, bg.G), m(fg.B, bg.B), 255}
}

// canvas is a picture being drawn.
type canvas struct{ img *image.Paletted }

// paint lays base colour fg over pixel x, y with coverage a in [0, 1].
func (c canvas) paint(x, y int, fg uint8, a float64) {
	if a <= 0 || !(image.Point{x, y}.In(c.img.Rect)) {
		return
	}
	i := c.img.PixOffset(x, y)
	k := int(a*(blendLevels+1) + 0.5)
	switch {
	case k >= blendLevels+1:
		c.img.Pix[i] = fg
	case k > 0:
		c.img.Pix[i] = mix[fg][c.img.Pix[i]][k-1]
	}
}

// shape paints fg over the pixels of the box around cx, cy of the given
// radius, with coverage cov of each pixel's centre.
func (c canvas) shape(cx, cy, radius float64, fg uint8, cov func(px, py float64) float64) {
	// Only the pixels of the canvas: a replay frame redraws a small part
	// of the board.
	x0, x1 := max(c.img.Rect.Min.X, int(math.Floor(cx-radius-1))), min(c.img.Rect.Max.X-1, int(math.Ceil(cx+radius+1)))
	y0, y1 := max(c.img.Rect.Min.Y, int(math.Floor(cy-radius-1))), min(c.img.Rect.Max.Y-1, int(math.Ceil(cy+radius+1)))
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c.paint(x, y, fg, cov(float64(x)+0.5, float64(y)+0.5))
		}
	}
}

// disc paints a filled circle. Only pixels on its edge take a square
// root: most of a board's drawing time is its stones.
func (c canvas) disc(cx, cy, r float64, fg uint8) {
	in, out := (r-0.5)*(r-0.5), (r+0.5)*(r+0.5)
	if r < 0.5 {
		in = 0
	}
	c.shape(cx, cy, r, fg, func(px, py float64) float64 {
		d2 := (px-cx)*(px-cx) + (py-cy)*(py-cy)
		switch {
		case d2 >= out:
			return 0
		case d2 <= in:
			return 1
		}
		return clamp01(r - math.Sqrt(d2) + 0.5)
	})
}

// ring paints a circle's outline of width w, centred on radius r.
func (c canvas) ring(cx, cy, r, w float64, fg uint8) {
	c.shape(cx, cy, r+w, fg, func(px, py float64) float64 {
		return clamp01(w/2 - math.Abs(math.Hypot(px-cx, py-cy)-r) + 0.5)
	})
}

// bar paints a segment from (ax, ay) to (bx, by) of width w with round
// ends.
func (c canvas) bar(ax, ay, bx, by, w float64, fg uint8) {
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	cx, cy := (ax+bx)/2, (ay+by)/2
	c.shape(cx, cy, math.Hypot(dx, dy)/2+w, fg, func(px, py float64) float64 {
		t := 0.0
		if l2 > 0 {
			t = clamp01(((px-ax)*dx + (py-ay)*dy) / l2)
		}
		return clamp01(w/2 - math.Hypot(px-ax-t*dx, py-ay-t*dy) + 0.5)
	})
}

// rect fills a rectangle of whole pixels.
func (c canvas) rect(r image.Rectangle, fg uint8) {
	r = r.Intersect(c.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[c.img.PixOffset(r.Min.X, y):c.img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = fg
		}
	}
}

func clamp01(a float64) float64 { return max(0, min(1, a)) }

// pictureCell returns the side of one cell of the picture in pixels: the
// picture of any board is about 640 pixels wide.
func pictureCell(r engine.Rules) int {
	return max(28, min(96, 640/(max(r.Width, r.Height)+2)))
}

// PictureSize returns the size in pixels of the picture of a board of
// rules r: one cell of margin around the board for the labels.
func PictureSize(r engine.Rules) image.Point {
	c := pictureCell(r)
	return image.Point{X: (r.Width + 2) * c, Y: (r.Height + 2) * c}
}

// Picture returns a PNG of the whole board of a game: grid, coordinates,
// stones, the last move and the winning line. Adapters send it with
// boards whose keyboard is Partial.
func Picture(v session.View) ([]byte, error) {
	img, err := drawBoard(v)
	if err != nil {
		return nil, err
	}
	return encodePNG(img, "picture")
}

// encodePNG returns img as a PNG, fast to write (the pictures are flat
// colours, which compress well anyway); what names it in an error.
func encodePNG(img image.Image, what string) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: %s: %w", what, err)
	}
	return buf.Bytes(), nil
}

// drawBoard draws the picture of a game.
func drawBoard(v session.View) (*image.Paletted, error) {
	r := v.Rules()
	face, err := labelFace(pictureCell(r))
	if err != nil {
		return nil, err
	}
	defer face.Close()
	c := canvas{image.NewPaletted(image.Rectangle{Max: PictureSize(r)}, pal)}
	last, hasLast := v.LastMove()
	fouls := slices.SortedFunc(maps.Keys(v.Fouls()), func(a, b engine.Point) int { return cmp.Or(a.Y-b.Y, a.X-b.X) })
	sc := scene{board: v.Board(), marked: marks(v), last: last, hasLast: hasLast, line: v.WinningLine(), fouls: fouls}
	if h, ok := v.Hint(); ok {
		sc.hint = &h
	}
	drawScene(c, face, sc)
	return c.img, nil
}

// scene is what the picture of a board shows: the stones, the marked
// cells (the last move, or the winning line), the last move and the
// winning line, the points forbidden to Black, and a caption in the
// bottom margin.
type scene struct {
	board   *engine.Board
	marked  []engine.Point
	last    engine.Point
	hasLast bool
	line    []engine.Point
	// fouls are the points forbidden to Black, in a renju game with
	// Black to move.
	fouls   []engine.Point
	caption string
	// hint, when set, is the empty cell a hint suggests: a blue target.
	hint *engine.Point
}

// drawScene draws a scene on the part of the picture c covers: a canvas
// on a sub-image redraws just that part, with the same pixels as the
// whole picture.
func drawScene(c canvas, face font.Face, s scene) {
	r := s.board.Rules()
	size := PictureSize(r)
	cs := pictureCell(r)
	cf := float64(cs)
	centre := func(p engine.Point) (float64, float64) {
		return cf * (float64(p.X) + 1.5), cf * (float64(p.Y) + 1.5)
	}
	gomoku := glyphsFor(r) == gomokuGlyphs
	bg := uint8(cPaper)
	if gomoku {
		bg = cWood
	}
	c.rect(c.img.Rect, bg)

	lw := max(1, cs/24)
	if gomoku {
		// Lines through the centres of the cells; stones sit on crossings.
		for x := range r.Width {
			px, _ := centre(engine.Point{X: x})
			c.rect(image.Rect(int(px)-lw/2, cs+cs/2, int(px)-lw/2+lw, size.Y-cs-cs/2+lw), cLine)
		}
		for y := range r.Height {
			_, py := centre(engine.Point{Y: y})
			c.rect(image.Rect(cs+cs/2, int(py)-lw/2, size.X-cs-cs/2+lw, int(py)-lw/2+lw), cLine)
		}
	} else {
		for _, p := range s.marked {
			c.rect(image.Rect(cs*(p.X+1), cs*(p.Y+1), cs*(p.X+2), cs*(p.Y+2)), cYellow)
		}
		for x := 0; x <= r.Width; x++ {
			c.rect(image.Rect(cs*(x+1)-lw/2, cs, cs*(x+1)-lw/2+lw, size.Y-cs), cLine)
		}
		for y := 0; y <= r.Height; y++ {
			c.rect(image.Rect(cs, cs*(y+1)-lw/2, size.X-cs, cs*(y+1)-lw/2+lw), cLine)
		}
	}

	for y := range r.Height {
		for x := range r.Width {
			p := engine.Point{X: x, Y: y}
			st := s.board.At(p)
			if st == engine.Empty || !cellRect(r, p).Overlaps(c.img.Rect) {
				continue
			}
			cx, cy := centre(p)
			switch {
			case gomoku && st == engine.Black:
				c.disc(cx, cy, cf*0.46, cBlack)
			case gomoku:
				c.disc(cx, cy, cf*0.46, cLine)
				c.disc(cx, cy, cf*0.46-1.5, cWhite)
			case st == engine.Black:
				d := cf * 0.28
				c.bar(cx-d, cy-d, cx+d, cy+d, cf*0.12, cRed)
				c.bar(cx-d, cy+d, cx+d, cy-d, cf*0.12, cRed)
			default:
				c.ring(cx, cy, cf*0.30, cf*0.11, cBlue)
			}
		}
	}
	for _, p := range s.fouls {
		// A red cross on the crossing: forbidden to Black.
		cx, cy := centre(p)
		d := cf * 0.2
		c.bar(cx-d, cy-d, cx+d, cy+d, cf*0.08, cRed)
		c.bar(cx-d, cy+d, cx+d, cy-d, cf*0.08, cRed)
	}
	if gomoku && s.hasLast {
		cx, cy := centre(s.last)
		c.disc(cx, cy, cf*0.13, cRed)
	}
	if s.hint != nil && cellRect(r, *s.hint).Overlaps(c.img.Rect) {
		cx, cy := centre(*s.hint)
		c.ring(cx, cy, cf*0.34, cf*0.08, cBlue)
		c.disc(cx, cy, cf*0.12, cBlue)
	}
	if len(s.line) > 0 {
		ax, ay := centre(s.line[0])
		bx, by := centre(s.line[len(s.line)-1])
		c.bar(ax, ay, bx, by, cf*0.12, cRed)
	}
	d := &font.Drawer{Dst: c.img, Src: image.NewUniform(baseColors[cLine]), Face: face}
	if c.img.Rect.Min.X < cs || c.img.Rect.Min.Y < cs {
		drawLabels(d, r, cs)
	}
	if s.caption != "" {
		centreText(d, s.caption, size.X/2, size.Y-cs/2)
	}
}

// cellRect returns the pixels of cell p with its stone, and with the
// lines on its edges on a tic-tac-toe board.
func cellRect(r engine.Rules, p engine.Point) image.Rectangle {
	cs := pictureCell(r)
	lw := max(1, cs/24)
	return image.Rect(cs*(p.X+1)-lw, cs*(p.Y+1)-lw, cs*(p.X+2)+lw, cs*(p.Y+2)+lw)
}

// labelFace returns the face of the labels on a board of cells of cs
// pixels. The caller closes it.
func labelFace(cs int) (font.Face, error) {
	f, err := labelFont()
	if err != nil {
		return nil, fmt.Errorf("render: picture font: %w", err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(cs) * 0.45, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: picture font: %w", err)
	}
	return face, nil
}

// centreText writes s with d centred on midX, midY.
func centreText(d *font.Drawer, s string, midX, midY int) {
	m := d.Face.Metrics()
	d.Dot = fixed.Point26_6{X: fixed.I(midX) - d.MeasureString(s)/2, Y: fixed.I(midY) + (m.Ascent-m.Descent)/2}
	d.DrawString(s)
}

// drawLabels writes the column letters above the board and the row
// numbers at its left, centred on their cells.
func drawLabels(d *font.Drawer, r engine.Rules, cs int) {
	for x := range r.Width {
		centreText(d, ColumnLabel(x), cs*(x+1)+cs/2, cs/2)
	}
	for y := range r.Height {
		centreText(d, RowLabel(y, r.Height), cs/2, cs*(y+1)+cs/2)
	}
}
