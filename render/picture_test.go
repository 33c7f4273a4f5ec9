package render

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// decodePicture renders v and decodes the PNG.
func decodePicture(t testing.TB, v session.View) image.Image {
	t.Helper()
	data, err := Picture(v)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

// pixelAt returns the colour at the centre of cell p.
func pixelAt(img image.Image, r engine.Rules, p engine.Point) [4]uint32 {
	c := pictureCell(r)
	return rgba(img, c*(p.X+1)+c/2, c*(p.Y+1)+c/2)
}

func rgba(img image.Image, x, y int) [4]uint32 {
	cr, cg, cb, ca := img.At(x, y).RGBA()
	return [4]uint32{cr, cg, cb, ca}
}

// cellsDiffer reports whether at least a fifth of the pixels of cells p
// and q differ (a ⭕ has the board's colour at its centre).
func cellsDiffer(img image.Image, r engine.Rules, p, q engine.Point) bool {
	c := pictureCell(r)
	n := 0
	for y := range c {
		for x := range c {
			if rgba(img, c*(p.X+1)+x, c*(p.Y+1)+y) != rgba(img, c*(q.X+1)+x, c*(q.Y+1)+y) {
				n++
			}
		}
	}
	return n >= c*c/5
}

func TestPictureOfEveryBoard(t *testing.T) {
	svc, st := fixtureStore(t)
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		for _, state := range []string{inProgress, won, drawn} {
			v := fixture(t, svc, st, r, state)
			img := decodePicture(t, v)
			if got, want := img.Bounds().Size(), PictureSize(r); got != want {
				t.Errorf("%s %s: size %v, want %v", name, state, got, want)
			}
			if state != inProgress {
				continue
			}
			// The fixture: black at the centre, white up-left of it.
			centre := engine.Point{X: r.Width / 2, Y: r.Height / 2}
			white := engine.Point{X: centre.X - 1, Y: centre.Y - 1}
			empty := engine.Point{X: 0, Y: r.Height - 1}
			if !cellsDiffer(img, r, centre, empty) || !cellsDiffer(img, r, white, empty) {
				t.Errorf("%s: stones look like the empty point", name)
			}
			if glyphsFor(r) == gomokuGlyphs && pixelAt(img, r, white) == pixelAt(img, r, empty) {
				t.Errorf("%s: the white stone's centre looks like the empty point", name)
			}
			if glyphsFor(r) == gomokuGlyphs && pixelAt(img, r, centre) == pixelAt(img, r, white) {
				t.Errorf("%s: black and white stones look alike", name)
			}
		}
	}
}

func TestPictureMarksTheLastMove(t *testing.T) {
	svc, st := fixtureStore(t)
	r, _ := engine.Preset("gomoku19")
	moves, _, _ := fixtureMoves(r, inProgress)
	// The same white stone, last move or not: the mark changes its centre.
	v := storedView(t, svc, st, r, moves, session.Running, engine.Empty)
	earlier := storedView(t, svc, st, r, append(moves, engine.Point{}), session.Running, engine.Empty)
	last := moves[len(moves)-1]
	if pixelAt(decodePicture(t, v), r, last) == pixelAt(decodePicture(t, earlier), r, last) {
		t.Error("the last move is not marked")
	}
}

var picturesDir = flag.String("pictures", "", "write the fixtures' pictures to this directory, for a person to look at")

// TestWritePictures writes the pictures of the fixtures to a directory
// (go test ./render -run WritePictures -pictures /tmp/boards; a temporary
// one by default) and checks that they decode.
func TestWritePictures(t *testing.T) {
	dir := *picturesDir
	if dir == "" {
		dir = t.TempDir()
	}
	svc, st := fixtureStore(t)
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		for _, state := range []string{inProgress, won, drawn} {
			data, err := Picture(fixture(t, svc, st, r, state))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, name+"_"+state+".png")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = png.Decode(f)
			f.Close()
			if err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
	}
}

// BenchmarkPicture19 draws and encodes a 19×19 board with the winning
// line and reports the PNG's size.
func BenchmarkPicture19(b *testing.B) {
	svc, st := fixtureStore(b)
	r, _ := engine.Preset("gomoku19")
	for _, state := range []string{won, drawn} {
		v := fixture(b, svc, st, r, state)
		b.Run(state, func(b *testing.B) {
			var n int
			for b.Loop() {
				data, err := Picture(v)
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "png-bytes")
		})
	}
}
