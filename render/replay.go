package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"strconv"
	"sync"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// The replay is an animated GIF of the pictures of the board (Picture),
// one frame for the empty board and one after each move, with the move's
// number and cell written under the board; the last move's frame also
// shows the winning line, as Picture does. A last frame writes the result
// under the final board instead, in the user's language, and stays for
// replayFinalDelay.
//
// Every frame after the first holds only the rectangle that changed since
// the one before, with the pixels that did not change transparent, so
// that a 19×19 game of 150 moves is a few hundred kilobytes; and only that
// rectangle is redrawn, so that it takes a fraction of a second.

// The delays of the frames of a replay, in hundredths of a second: the
// empty board, each move, and the result. The moves of a long
// game go faster, so that the whole game lasts about replayMovesTime.
const (
	replayFirstDelay = 80
	replayMinDelay   = 15
	replayMaxDelay   = 80
	replayFinalDelay = 400
	replayMovesTime  = 2000
)

// ErrNoMoves is returned by Replay for a game without moves: there is
// nothing to replay.
var ErrNoMoves = errors.New("render: replay: the game has no moves")

// gifPalette is the palette of the pictures and one transparent colour
// at index transparent, the pixels a frame leaves as they were.
var gifPalette = sync.OnceValue(func() color.Palette {
	if len(pal) != transparent {
		panic("render: the picture's palette has " + strconv.Itoa(len(pal)) + " colours")
	}
	return append(append(color.Palette(nil), pal...), color.RGBA{})
})

// transparent is the index of the transparent colour of gifPalette: the
// base colours and their blends come before it.
const transparent = nBase + blendLevels*nBase*(nBase-1)/2

// replayDelay returns the delay of each move's frame in a replay of n
// moves, in hundredths of a second.
func replayDelay(n int) int {
	return max(replayMinDelay, min(replayMaxDelay, replayMovesTime/max(1, n)))
}

// Replay returns an animated GIF of the game v: the empty board, then the
// board after each move with the last move marked and its number and cell
// written under the board ("37 h8"), the last move with the winning line,
// and last the final board with the result under it in language l
// (replayResult), held a few seconds. It has len(v.Moves())+2 frames,
// each the size of PictureSize(v.Rules()) or a part of it, looping
// forever. ReplayCaption gives the words to send with it. Replay returns
// ErrNoMoves for a game without moves.
func Replay(v session.View, l Lang) ([]byte, error) {
	r := v.Rules()
	moves := v.Moves()
	if len(moves) == 0 {
		return nil, ErrNoMoves
	}
	b, err := engine.NewBoard(r)
	if err != nil {
		return nil, fmt.Errorf("render: replay: %w", err)
	}
	face, err := labelFace(pictureCell(r))
	if err != nil {
		return nil, err
	}
	defer face.Close()

	size := PictureSize(r)
	cur := image.NewPaletted(image.Rectangle{Max: size}, gifPalette())
	drawScene(canvas{cur}, face, scene{board: b})
	first := image.NewPaletted(cur.Rect, gifPalette())
	copy(first.Pix, cur.Pix)
	anim := &gif.GIF{
		Image:    []*image.Paletted{first},
		Delay:    []int{replayFirstDelay},
		Disposal: []byte{gif.DisposalNone},
		Config:   image.Config{ColorModel: gifPalette(), Width: size.X, Height: size.Y},
	}
	prev := make([]uint8, len(cur.Pix))
	var s scene
	for i, m := range moves {
		if err := b.Play(m); err != nil {
			return nil, fmt.Errorf("render: replay move %d: %w", i+1, err)
		}
		s = scene{board: b, marked: []engine.Point{m}, last: m, hasLast: true, caption: strconv.Itoa(i+1) + " " + FormatCoord(m, r)}
		if i == len(moves)-1 {
			if s.line = v.WinningLine(); len(s.line) > 0 {
				s.marked = s.line
			}
		}
		dirty := replayDirty(r, moves[:i+1], s.line)
		copy(prev, cur.Pix)
		drawScene(canvas{cur.SubImage(dirty).(*image.Paletted)}, face, s)
		anim.Image = append(anim.Image, frameDiff(cur, prev, dirty))
		anim.Delay = append(anim.Delay, replayDelay(len(moves)))
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	// The result replaces the last move's caption.
	s.caption = ""
	dirty := image.Rect(0, size.Y-pictureCell(r), size.X, size.Y)
	copy(prev, cur.Pix)
	c := canvas{cur.SubImage(dirty).(*image.Paletted)}
	drawScene(c, face, s)
	if err := drawCaption(c, r, replayResult(v, l)); err != nil {
		return nil, err
	}
	anim.Image = append(anim.Image, frameDiff(cur, prev, dirty))
	anim.Delay = append(anim.Delay, replayFinalDelay)
	anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, fmt.Errorf("render: replay: %w", err)
	}
	return buf.Bytes(), nil
}

// replayDirty returns the part of the picture that changes when the last
// of played is played: its cell, the cell of the move before it (which
// loses its mark), the caption under the board, and the winning line.
func replayDirty(r engine.Rules, played, line []engine.Point) image.Rectangle {
	size := PictureSize(r)
	cs := pictureCell(r)
	// The caption, "361 s19" at most, is two cells wide.
	dirty := image.Rect(size.X/2-3*cs, size.Y-cs, size.X/2+3*cs, size.Y)
	for _, p := range append(played[max(0, len(played)-2):], line...) {
		dirty = dirty.Union(cellRect(r, p))
	}
	return dirty.Intersect(image.Rectangle{Max: size})
}

// frameDiff returns the frame that turns prev into cur within dirty: the
// smallest rectangle holding every changed pixel, with the pixels that
// did not change transparent.
func frameDiff(cur *image.Paletted, prev []uint8, dirty image.Rectangle) *image.Paletted {
	changed := image.Rectangle{Min: dirty.Max, Max: dirty.Min}
	for y := dirty.Min.Y; y < dirty.Max.Y; y++ {
		i := cur.PixOffset(dirty.Min.X, y)
		for x := dirty.Min.X; x < dirty.Max.X; x, i = x+1, i+1 {
			if cur.Pix[i] != prev[i] {
				changed.Min = image.Point{min(changed.Min.X, x), min(changed.Min.Y, y)}
				changed.Max = image.Point{max(changed.Max.X, x+1), max(changed.Max.Y, y+1)}
			}
		}
	}
	if changed.Empty() {
		changed = image.Rect(dirty.Min.X, dirty.Min.Y, dirty.Min.X+1, dirty.Min.Y+1)
	}
	f := image.NewPaletted(changed, gifPalette())
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		i := cur.PixOffset(changed.Min.X, y)
		row := f.Pix[f.PixOffset(changed.Min.X, y):f.PixOffset(changed.Max.X, y)]
		for k := range row {
			if cur.Pix[i+k] == prev[i+k] {
				row[k] = transparent
			} else {
				row[k] = cur.Pix[i+k]
			}
		}
	}
	return f
}

// ReplayCaption returns the text to send with a game's Replay in
// language l: who played whom and which game, how it ended, and the
// number of moves.
func ReplayCaption(v session.View, l Lang) string {
	return T(l, MsgHeaderGame, T(l, MsgVs, seatLabel(v, engine.Black, l), seatLabel(v, engine.White, l)), GameName(l, v.Rules())) +
		"\n" + Status(v, l) + "\n" + T(l, MsgReplayMoves, len(v.Moves()))
}

// MsgReplayMoves is the last line of ReplayCaption: how many moves.
const MsgReplayMoves Key = "replay_moves"

// replayResult returns the words under the replay's last frame: the
// game's result in language l as the board's text says it (Status), each
// player shown by their stone and, when the picture's font has its
// letters, their name.
func replayResult(v session.View, l Lang) string {
	return status(v, l, func(side engine.Stone) string {
		if label := seatLabel(v, side, l); canDraw(label) {
			return label
		}
		return Stone(v.Rules(), side)
	})
}
