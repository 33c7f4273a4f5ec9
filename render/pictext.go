package render

import (
	_ "embed"
	"fmt"
	"image"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/boardbot/boardbot/engine"
)

// The words in pictures, the chart's and the replay's result, are written
// in textFace: the Go font's bold letters, as the board's labels; the
// Chinese letters of Noto Sans CJK SC Bold, only those of this package's
// messages (fonts/cjk.otf, which fonts/subset.sh rebuilds); and the
// stones of the board text, ❌ ⭕ ⚫ ⚪, as the picture draws them, in the
// colour of the words. Any other letter is written "?".

// cjkOTF is the font of the Chinese letters: see fonts/OFL.txt.
//
//go:embed fonts/cjk.otf
var cjkOTF []byte

var cjkFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(cjkOTF) })

// textStones are the stones of the board text that textFace draws.
const textStones = "❌⭕⚫⚪"

// The fonts of textFace, in the order a letter is looked for.
const (
	fromLatin = iota
	fromCJK
	fromStones
	fromNone
)

// textFace is the face of the words in pictures, at one size.
type textFace struct {
	size  float64
	fonts [2]*sfnt.Font
	faces [2]font.Face
	buf   sfnt.Buffer
}

// textFonts returns the fonts of textFace.
func textFonts() ([2]*sfnt.Font, error) {
	latin, err := labelFont()
	if err != nil {
		return [2]*sfnt.Font{}, fmt.Errorf("render: picture font: %w", err)
	}
	cjk, err := cjkFont()
	if err != nil {
		return [2]*sfnt.Font{}, fmt.Errorf("render: Chinese font: %w", err)
	}
	return [2]*sfnt.Font{latin, cjk}, nil
}

// newTextFace returns a textFace of size pixels. The caller closes it.
func newTextFace(size float64) (*textFace, error) {
	fonts, err := textFonts()
	if err != nil {
		return nil, err
	}
	f := &textFace{size: size, fonts: fonts}
	for i, ft := range f.fonts {
		if f.faces[i], err = opentype.NewFace(ft, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull}); err != nil {
			f.Close()
			return nil, fmt.Errorf("render: picture font: %w", err)
		}
	}
	return f, nil
}

// source returns the font that writes r.
func (f *textFace) source(r rune) int {
	if strings.ContainsRune(textStones, r) {
		return fromStones
	}
	for i, ft := range f.fonts {
		if x, err := ft.GlyphIndex(&f.buf, r); err == nil && x != 0 {
			return i
		}
	}
	return fromNone
}

// Close closes the fonts' faces.
func (f *textFace) Close() error {
	for _, face := range f.faces {
		if face != nil {
			face.Close()
		}
	}
	return nil
}

// Metrics returns the metrics of the Latin letters, which place a line.
func (f *textFace) Metrics() font.Metrics { return f.faces[fromLatin].Metrics() }

// Kern returns the kerning of two Latin letters, else zero.
func (f *textFace) Kern(r0, r1 rune) fixed.Int26_6 {
	if f.source(r0) != fromLatin || f.source(r1) != fromLatin {
		return 0
	}
	return f.faces[fromLatin].Kern(r0, r1)
}

// Glyph draws r from the first font that has it.
func (f *textFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	switch src := f.source(r); src {
	case fromStones:
		b, advance := f.stoneBounds()
		mask := f.stone(r)
		at := image.Point{X: (dot.X + b.Min.X).Round(), Y: (dot.Y + b.Min.Y).Round()}
		return mask.Rect.Add(at), mask, image.Point{}, advance, true
	case fromNone:
		return f.faces[fromLatin].Glyph(dot, '?')
	default:
		return f.faces[src].Glyph(dot, r)
	}
}

// GlyphBounds returns the bounds of r as Glyph draws it.
func (f *textFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	switch src := f.source(r); src {
	case fromStones:
		b, advance := f.stoneBounds()
		return b, advance, true
	case fromNone:
		return f.faces[fromLatin].GlyphBounds('?')
	default:
		return f.faces[src].GlyphBounds(r)
	}
}

// GlyphAdvance returns the advance of r as Glyph draws it.
func (f *textFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	_, advance, ok := f.GlyphBounds(r)
	return advance, ok
}

// stoneSide returns the side in pixels of a stone in the text.
func (f *textFace) stoneSide() int { return max(4, int(math.Round(f.size*0.8))) }

// stoneBounds returns the box of a stone about the dot, a square sitting
// on the baseline as high as a capital letter, and its advance.
func (f *textFace) stoneBounds() (fixed.Rectangle26_6, fixed.Int26_6) {
	side := f.stoneSide()
	pad := int(math.Round(f.size * 0.1))
	top := int(math.Round(f.size*0.36)) + side/2
	b := fixed.Rectangle26_6{
		Min: fixed.Point26_6{X: fixed.I(pad), Y: fixed.I(-top)},
		Max: fixed.Point26_6{X: fixed.I(pad + side), Y: fixed.I(side - top)},
	}
	return b, fixed.I(side + 2*pad)
}

// stone returns the mask of stone r: the picture's shape for it.
func (f *textFace) stone(r rune) *image.Alpha {
	side := f.stoneSide()
	c := canvas{image.NewPaletted(image.Rect(0, 0, side, side), pal)}
	c.rect(c.img.Rect, cPaper)
	cf := float64(side)
	cx, cy := cf/2, cf/2
	w := max(1.5, cf*0.14)
	switch r {
	case '❌':
		d := cf * 0.36
		c.bar(cx-d, cy-d, cx+d, cy+d, w, cBlack)
		c.bar(cx-d, cy+d, cx+d, cy-d, w, cBlack)
	case '⭕':
		c.ring(cx, cy, cf*0.5-w, w, cBlack)
	case '⚫':
		c.disc(cx, cy, cf*0.5-0.5, cBlack)
	case '⚪':
		c.ring(cx, cy, cf*0.5-w/2-0.5, w, cBlack)
	}
	// Each pixel's coverage is how far its colour went from paper to
	// black.
	paper, black := float64(baseColors[cPaper].R), float64(baseColors[cBlack].R)
	mask := image.NewAlpha(c.img.Rect)
	for i, p := range c.img.Pix {
		r, _, _, _ := pal[p].RGBA()
		mask.Pix[i] = uint8(math.Round(255 * clamp01((paper-float64(r>>8))/(paper-black))))
	}
	return mask
}

// canDraw reports whether textFace has every letter of s.
func canDraw(s string) bool {
	fonts, err := textFonts()
	if err != nil {
		return false
	}
	f := &textFace{fonts: fonts}
	for _, r := range s {
		if f.source(r) == fromNone {
			return false
		}
	}
	return true
}

// measure returns the width of s written in face.
func measure(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// captionBreaks are the letters after which a caption may go on a second
// line: a space (dropped) and the Chinese punctuation.
const captionBreaks = " 。，：；！？"

// splitCaption returns s cut in two lines at the break that makes the
// longer line shortest in face, or false when s has no break.
func splitCaption(face font.Face, s string) (string, string, bool) {
	best, a, b := math.Inf(1), "", ""
	for i, r := range s {
		if !strings.ContainsRune(captionBreaks, r) {
			continue
		}
		head, tail := s[:i+len(string(r))], s[i+len(string(r)):]
		if r == ' ' {
			head = s[:i]
		}
		head, tail = strings.TrimSpace(head), strings.TrimSpace(tail)
		if head == "" || tail == "" {
			continue
		}
		if w := max(measure(face, head), measure(face, tail)); w < best {
			best, a, b = w, head, tail
		}
	}
	return a, b, a != ""
}

// drawCaption writes s in the bottom margin of the picture of a board of
// rules r, on c: as large as the board's labels, or smaller on one line or
// two, whichever is larger, to fit the margin.
func drawCaption(c canvas, r engine.Rules, s string) error {
	size, cs := PictureSize(r), pictureCell(r)
	// The labels' size; two lines, each 1.2 times the size, take at most
	// nine tenths of the margin.
	full, width := float64(cs)*0.45, float64(size.X-cs)
	face, err := newTextFace(full)
	if err != nil {
		return err
	}
	defer func() { face.Close() }()
	lines := []string{s}
	px := min(full, full*width/max(1, measure(face, s)))
	if a, b, ok := splitCaption(face, s); ok {
		if two := min(float64(cs)*0.9/2.4, full*width/max(1, measure(face, a), measure(face, b))); two > px {
			lines, px = []string{a, b}, two
		}
	}
	// Sizes do not scale the width exactly: shrink until every line fits.
	for range 8 {
		if px != face.size {
			next, err := newTextFace(px)
			if err != nil {
				return err
			}
			face.Close()
			face = next
		}
		widest := 0.0
		for _, l := range lines {
			widest = max(widest, measure(face, l))
		}
		if widest <= width || px < 4 {
			break
		}
		px *= width / widest * 0.98
	}
	d := &font.Drawer{Dst: c.img, Src: image.NewUniform(baseColors[cLine]), Face: face}
	mid := float64(size.Y) - float64(cs)/2
	for i, l := range lines {
		y := mid + (float64(i)-float64(len(lines)-1)/2)*px*1.2
		centreText(d, l, size.X/2, int(math.Round(y)))
	}
	return nil
}
