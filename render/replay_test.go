package render

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// replayFrames decodes a replay and returns its frames as they show, each
// a whole picture of palette indices, and the delays.
func replayFrames(t testing.TB, data []byte) ([]*image.Paletted, []int) {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a GIF: %v", err)
	}
	size := image.Rect(0, 0, g.Config.Width, g.Config.Height)
	if g.Image[0].Rect != size {
		t.Fatalf("first frame %v, picture %v", g.Image[0].Rect, size)
	}
	var frames []*image.Paletted
	cur := image.NewPaletted(size, gifPalette())
	for i, f := range g.Image {
		if !f.Rect.In(size) {
			t.Fatalf("frame %d at %v, outside %v", i, f.Rect, size)
		}
		if g.Disposal[i] != gif.DisposalNone {
			t.Fatalf("frame %d disposal %d", i, g.Disposal[i])
		}
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			src := f.Pix[f.PixOffset(f.Rect.Min.X, y):f.PixOffset(f.Rect.Max.X, y)]
			dst := cur.Pix[cur.PixOffset(f.Rect.Min.X, y):]
			for x, c := range src {
				if c != transparent {
					dst[x] = c
				}
			}
		}
		frames = append(frames, image.NewPaletted(size, gifPalette()))
		copy(frames[i].Pix, cur.Pix)
	}
	return frames, g.Delay
}

// wholeScene draws the whole picture of the board after the first k of
// moves, as the replay's frame k must show it; frame len(moves)+1 is the
// result, in English.
func wholeScene(t testing.TB, v session.View, k int) *image.Paletted {
	t.Helper()
	if k > len(v.Moves()) {
		return resultScene(t, v, English)
	}
	return moveScene(t, v, k, true)
}

// moveScene draws the whole picture of the board after the first k of
// moves, with the move's caption or none.
func moveScene(t testing.TB, v session.View, k int, caption bool) *image.Paletted {
	t.Helper()
	r := v.Rules()
	moves := v.Moves()
	b, err := engine.Replay(r, moves[:k])
	if err != nil {
		t.Fatal(err)
	}
	s := scene{board: b}
	if k > 0 {
		m := moves[k-1]
		s = scene{board: b, marked: []engine.Point{m}, last: m, hasLast: true, caption: strconv.Itoa(k) + " " + FormatCoord(m, r)}
	}
	if k == len(moves) && len(v.WinningLine()) > 0 {
		s.line, s.marked = v.WinningLine(), v.WinningLine()
	}
	if !caption {
		s.caption = ""
	}
	face, err := labelFace(pictureCell(r))
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	img := image.NewPaletted(image.Rectangle{Max: PictureSize(r)}, gifPalette())
	drawScene(canvas{img}, face, s)
	return img
}

// resultScene draws the whole picture of the replay's last frame: the
// final board with replayResult(v, l) under it.
func resultScene(t testing.TB, v session.View, l Lang) *image.Paletted {
	t.Helper()
	img := moveScene(t, v, len(v.Moves()), false)
	if err := drawCaption(canvas{img}, v.Rules(), replayResult(v, l)); err != nil {
		t.Fatal(err)
	}
	return img
}

// firstDiff returns the first pixel where a and b differ within r.
func firstDiff(a, b image.Image, r image.Rectangle) (image.Point, bool) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgba(a, x, y) != rgba(b, x, y) {
				return image.Point{x, y}, true
			}
		}
	}
	return image.Point{}, false
}

func TestReplayShowsEveryMove(t *testing.T) {
	t.Parallel()
	svc, st := fixtureStore(t)
	for _, name := range []string{"ttt", "7x7", "gomoku"} {
		r, _ := engine.Preset(name)
		for _, state := range []string{won, drawn} {
			if name == "gomoku" && state == drawn {
				continue // 225 frames: TestReplayOfALongGameIsSmall has long games
			}
			v := fixture(t, svc, st, r, state)
			data, err := Replay(v, English)
			if err != nil {
				t.Fatal(err)
			}
			frames, delays := replayFrames(t, data)
			n := len(v.Moves())
			if len(frames) != n+2 {
				t.Fatalf("%s %s: %d frames for %d moves, want one more for the result", name, state, len(frames), n)
			}
			for k, f := range frames {
				if state == drawn && k > 1 && k != n/2 && k < n-1 {
					continue // every frame of the won games is checked
				}
				if want := wholeScene(t, v, k); !bytes.Equal(f.Pix, want.Pix) {
					p, _ := firstDiff(f, want, f.Rect)
					t.Fatalf("%s %s: frame %d differs from the board after %d moves at %v", name, state, k, min(k, n), p)
				}
			}
			if delays[0] != replayFirstDelay || delays[n] != replayDelay(n) || delays[n+1] != replayFinalDelay || (n > 1 && delays[1] != replayDelay(n)) {
				t.Errorf("%s %s: delays %v", name, state, delays)
			}
			// The last frame is the game's picture, with the result under
			// the board.
			pic := decodePicture(t, v)
			board := pic.Bounds()
			board.Max.Y -= pictureCell(r)
			if p, ok := firstDiff(frames[n+1], pic, board); ok {
				t.Errorf("%s %s: the last frame differs from Picture at %v", name, state, p)
			}
		}
	}
}

func TestReplayOfNoMoves(t *testing.T) {
	svc, st := fixtureStore(t)
	v := storedView(t, svc, st, engine.TicTacToe(), nil, session.Running, engine.Empty)
	if _, err := Replay(v, English); !errors.Is(err, ErrNoMoves) {
		t.Fatalf("err %v, want ErrNoMoves", err)
	}
}

// TestReplayGolden compares the first and last frames of the replays of
// won games with testdata/replay_*.png (go test -update rewrites them).
func TestReplayGolden(t *testing.T) {
	t.Parallel()
	svc, st := fixtureStore(t)
	for _, name := range []string{"ttt", "7x7", "gomoku"} {
		r, _ := engine.Preset(name)
		v := fixture(t, svc, st, r, won)
		data, err := Replay(v, English)
		if err != nil {
			t.Fatal(err)
		}
		frames, _ := replayFrames(t, data)
		goldenPNG(t, "replay_"+name+"_first", frames[0])
		goldenPNG(t, "replay_"+name+"_last", frames[len(frames)-1])
	}
}

// goldenPNG compares the pixels of img with testdata/name.png, or
// rewrites the file under -update.
func goldenPNG(t *testing.T, name string, img image.Image) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("%s: size %v, want %v (go test -update rewrites it)", name, img.Bounds(), want.Bounds())
	}
	if p, ok := firstDiff(img, want, img.Bounds()); ok {
		t.Errorf("%s differs from %s at %v (go test -update rewrites it)", name, path, p)
	}
}

// longGame stores a 19×19 game of n moves on cells drawn by a seeded
// random source, none of them ending the game, resigned by white.
func longGame(t testing.TB, n int) session.View {
	t.Helper()
	svc, st := fixtureStore(t)
	r, _ := engine.Preset("gomoku19")
	b, err := engine.NewBoard(r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var moves []engine.Point
	for len(moves) < n {
		p := engine.Point{X: rng.IntN(r.Width), Y: rng.IntN(r.Height)}
		if !b.Legal(p) {
			continue
		}
		if err := b.Play(p); err != nil {
			t.Fatal(err)
		}
		if b.Over() {
			if err := b.Undo(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		moves = append(moves, p)
	}
	return storedView(t, svc, st, r, moves, session.Resigned, engine.Black)
}

// maxReplay19 is the most bytes the replay of the 150-move 19×19 game
// may take.
const maxReplay19 = 1 << 20

func TestReplayOfALongGameIsSmall(t *testing.T) {
	t.Parallel()
	v := longGame(t, 150)
	data, err := Replay(v, English)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= maxReplay19 {
		t.Errorf("replay of 150 moves on 19×19: %d bytes, want under %d", len(data), maxReplay19)
	}
	frames, _ := replayFrames(t, data)
	if len(frames) != 152 {
		t.Fatalf("%d frames, want 152", len(frames))
	}
	for _, k := range []int{1, 75, 150, 151} {
		if p, ok := firstDiff(frames[k], wholeScene(t, v, k), frames[k].Rect); ok {
			t.Errorf("frame %d differs at %v", k, p)
		}
	}
	t.Logf("replay of 150 moves on 19×19: %d bytes", len(data))
}

// seatedView stores a game of rules r between seats with the given moves
// and status, and returns its view as the service loads it.
func seatedView(t testing.TB, r engine.Rules, seats [2]session.Seat, moves []engine.Point, status session.Status, winner engine.Stone) session.View {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := session.Game{
		ID: session.GameID(strconv.FormatUint(fixtures.Add(1), 36)), Platform: "test", Chat: "c", Rules: r,
		Seats: seats, Moves: moves, Status: status, Winner: winner, Version: 1, Seed: 7, Created: at, Updated: at,
	}
	v, err := session.ViewOf(g)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestReplayEndsWithTheResult checks the replay's last frame: the final
// board with the result written under it, in the user's language, held
// longer than the moves.
func TestReplayEndsWithTheResult(t *testing.T) {
	t.Parallel()
	svc, st := fixtureStore(t)
	r := engine.TicTacToe()
	moves, _, _ := fixtureMoves(r, won)
	v := storedView(t, svc, st, r, moves[:3], session.Resigned, engine.White)
	n := len(v.Moves())
	size, cs := PictureSize(r), pictureCell(r)
	board, caption := image.Rect(0, 0, size.X, size.Y-cs), image.Rect(0, size.Y-cs, size.X, size.Y)
	for _, l := range Langs {
		data, err := Replay(v, l)
		if err != nil {
			t.Fatal(err)
		}
		frames, delays := replayFrames(t, data)
		if len(frames) != n+2 {
			t.Fatalf("%s: %d frames for %d moves, want one more for the result", l, len(frames), n)
		}
		last := frames[n+1]
		if _, ok := firstDiff(last, frames[n], caption); !ok {
			t.Errorf("%s: the last frame's caption is the last move's", l)
		}
		if p, ok := firstDiff(last, frames[n], board); ok {
			t.Errorf("%s: the last frame's board differs from the last move's at %v", l, p)
		}
		if p, ok := firstDiff(last, resultScene(t, v, l), last.Rect); ok {
			t.Errorf("%s: the last frame differs from the board with %q at %v", l, replayResult(v, l), p)
		}
		for i, d := range delays[:n+1] {
			if d >= delays[n+1] {
				t.Errorf("%s: frame %d lasts %d, the result %d: want the result longest", l, i, d, delays[n+1])
			}
		}
	}
}

func TestReplayResult(t *testing.T) {
	svc, st := fixtureStore(t)
	ttt := engine.TicTacToe()
	moves, _, _ := fixtureMoves(ttt, won)
	bob := session.User{ID: "2", Name: "bob"}
	duel := [2]session.Seat{{User: alice}, {User: bob}}
	// A name whose letters the picture's font lacks.
	korean := [2]session.Seat{{User: session.User{ID: "3", Name: "김철수"}}, {AI: engine.Hard}}
	for _, tt := range []struct {
		name   string
		v      session.View
		en, zh string
	}{
		{"won", fixture(t, svc, st, ttt, won), "Winner: ❌ alice, with three in a row.", "获胜：❌ alice，连成三子。"},
		{"drawn", fixture(t, svc, st, ttt, drawn), "Draw: the board is full.", "平局：棋盘已满。"},
		{"resigned", storedView(t, svc, st, ttt, moves[:3], session.Resigned, engine.White),
			"❌ alice resigned. Winner: ⭕ AI (hard).", "❌ alice 认输了。获胜：⭕ AI（困难）。"},
		{"expired", seatedView(t, ttt, duel, moves[:3], session.Expired, engine.Empty), "The game expired.", "对局已超时。"},
		{"out of time", seatedView(t, ttt, duel, moves[:3], session.Expired, engine.Black),
			"The game expired. ⭕ bob ran out of time. Winner: ❌ alice.", "对局已超时。⭕ bob 超时。获胜：❌ alice。"},
		{"unwritable name", seatedView(t, ttt, korean, moves, session.Won, engine.Black),
			"Winner: ❌, with three in a row.", "获胜：❌，连成三子。"},
	} {
		for l, want := range map[Lang]string{English: tt.en, Chinese: tt.zh} {
			got := replayResult(tt.v, l)
			if got != want {
				t.Errorf("%s in %s: %q, want %q", tt.name, l, got, want)
			}
			if !canDraw(got) {
				t.Errorf("%s in %s: %q has letters the font lacks", tt.name, l, got)
			}
		}
	}
}

func TestReplayCaption(t *testing.T) {
	svc, st := fixtureStore(t)
	v := fixture(t, svc, st, engine.TicTacToe(), won)
	for l, want := range map[Lang][]string{
		English: {"❌ alice", "AI (hard)", "Tic-tac-toe", "Moves: 5."},
		Chinese: {"❌ alice", "AI（困难）", "井字棋", "共 5 手。"},
	} {
		got := ReplayCaption(v, l)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s caption lacks %q:\n%s", l, w, got)
			}
		}
	}
}

// BenchmarkReplay19 draws and encodes the replay of a 150-move game on
// 19×19 and reports the GIF's size.
func BenchmarkReplay19(b *testing.B) {
	v := longGame(b, 150)
	var n int
	for b.Loop() {
		data, err := Replay(v, English)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "gif-bytes")
}
