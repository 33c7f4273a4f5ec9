package adapters

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// MaxCallbackLen is the longest callback data any platform takes
// (Telegram's limit; Discord allows 100).
const MaxCallbackLen = 64

// ErrBadCallback is returned by DecodeAction for data no button of this bot
// produced: garbage, oversize, or a malformed field.
var ErrBadCallback = errors.New("adapters: bad callback data")

// Callback data is text: a kind letter and its fields joined by ':'.
//
//	p:<game>:<move>:<x>:<y>   place a stone (render.Place)
//	p:<game>:<move>:<x>:<y>:<wx>:<wy>  the same, tapped in the window
//	                          whose top-left cell is wx,wy (not 0,0)
//	s:<game>:<x>:<y>          show the board window at x,y (render.Scroll)
//	r:<game>                  resign (render.Resign)
//	R:<game>                  rematch (render.Rematch)
//	a:<game>, d:<game>, c:<game>  accept, decline, cancel a challenge
//	u:<game>:<move>           take back a move (render.Undo)
//	y:<game>:<move>, x:<game>:<move>  allow, refuse a takeback
//	h:<game>:<move>           ask for a hint (render.Hint)
//	n                         a button that does nothing (render.Noop)
//	k                         send the tapper's chart again (render.StatsChart)
//	f:<game>                  show the game, for typed moves (render.Show)
//	v:<game>                  send the replay of a finished game (render.ReplayGame)
//	e:<game>                  send the record of a finished game (render.ExportGame)
//	n                         a control that does nothing (render.Noop)
//	n:<game>:<x>:<y>          a cell that takes no stone (render.Noop)
//
// Numbers are decimal without sign or leading zeros; game ids are
// [0-9a-z] of at most 16 characters. Decoding accepts exactly what
// EncodeAction produces.
const maxGameIDLen = 16

// gameOnly maps the letters of actions whose only field is the game to
// their kinds.
var gameOnly = map[string]render.ActionKind{
	"r": render.Resign, "R": render.Rematch, "a": render.Accept, "d": render.Decline, "c": render.Cancel,
	"f": render.Show, "v": render.ReplayGame, "e": render.ExportGame,
}

// atMove maps the letters of actions whose fields are the game and the
// move number to their kinds.
var atMove = map[string]render.ActionKind{
	"u": render.Undo, "y": render.UndoAccept, "x": render.UndoDecline, "h": render.Hint,
}

// EncodeAction returns the callback data of a button's action.
func EncodeAction(a render.Action) string {
	for letter, kind := range atMove {
		if kind == a.Kind {
			return fmt.Sprintf("%s:%s:%d", letter, a.Game, a.MoveNo)
		}
	}
	switch a.Kind {
	case render.Place:
		if a.Window != (engine.Point{}) {
			return fmt.Sprintf("p:%s:%d:%d:%d:%d:%d", a.Game, a.MoveNo, a.Cell.X, a.Cell.Y, a.Window.X, a.Window.Y)
		}
		return fmt.Sprintf("p:%s:%d:%d:%d", a.Game, a.MoveNo, a.Cell.X, a.Cell.Y)
	case render.Scroll:
		return fmt.Sprintf("s:%s:%d:%d", a.Game, a.Window.X, a.Window.Y)
	case render.StatsChart:
		return "k"
	case render.Noop:
		if a.Game != "" {
			return fmt.Sprintf("n:%s:%d:%d", a.Game, a.Cell.X, a.Cell.Y)
		}
		return "n"
	}
	for letter, kind := range gameOnly {
		if kind == a.Kind {
			return letter + ":" + string(a.Game)
		}
	}
	return "n"
}

// DecodeAction parses callback data made by EncodeAction. Anything else
// gives an error wrapping ErrBadCallback.
func DecodeAction(data string) (render.Action, error) {
	bad := func(why string) (render.Action, error) {
		if len(data) > 80 {
			data = data[:80] + "…"
		}
		return render.Action{}, fmt.Errorf("%w: %s: %q", ErrBadCallback, why, data)
	}
	if len(data) > MaxCallbackLen {
		return bad("too long")
	}
	f := strings.Split(data, ":")
	var a render.Action
	kind, isGameOnly := gameOnly[f[0]]
	moveKind, isAtMove := atMove[f[0]]
	switch {
	case f[0] == "n" && len(f) == 1:
		return render.Action{Kind: render.Noop}, nil
	case f[0] == "k" && len(f) == 1:
		return render.Action{Kind: render.StatsChart}, nil
	case isGameOnly && len(f) == 2:
		a.Kind = kind
	case isAtMove && len(f) == 3:
		a.Kind = moveKind
	case f[0] == "p" && (len(f) == 5 || len(f) == 7):
		a.Kind = render.Place
	case f[0] == "s" && len(f) == 4:
		a.Kind = render.Scroll
	case f[0] == "n" && len(f) == 4:
		a.Kind = render.Noop
	default:
		return bad("unknown kind")
	}
	if !validGameID(f[1]) {
		return bad("game id")
	}
	a.Game = session.GameID(f[1])
	nums := make([]int, len(f)-2)
	for i, s := range f[2:] {
		n, ok := parseNat(s)
		if !ok {
			return bad("number")
		}
		nums[i] = n
	}
	switch a.Kind {
	case render.Place:
		if nums[0] >= engine.MaxSize*engine.MaxSize || nums[1] >= engine.MaxSize || nums[2] >= engine.MaxSize {
			return bad("out of range")
		}
		a.MoveNo, a.Cell = nums[0], engine.Point{X: nums[1], Y: nums[2]}
		if len(nums) == 5 {
			if nums[3] >= engine.MaxSize || nums[4] >= engine.MaxSize || nums[3]+nums[4] == 0 {
				return bad("window")
			}
			a.Window = engine.Point{X: nums[3], Y: nums[4]}
		}
	case render.Scroll:
		if nums[0] >= engine.MaxSize || nums[1] >= engine.MaxSize {
			return bad("out of range")
		}
		a.Window = engine.Point{X: nums[0], Y: nums[1]}
	case render.Undo, render.UndoAccept, render.UndoDecline, render.Hint:
		if nums[0] > engine.MaxSize*engine.MaxSize {
			return bad("out of range")
		}
		a.MoveNo = nums[0]
	case render.Noop:
		if nums[0] >= engine.MaxSize || nums[1] >= engine.MaxSize {
			return bad("out of range")
		}
		a.Cell = engine.Point{X: nums[0], Y: nums[1]}
	}
	return a, nil
}

// validGameID reports whether s has the shape of a game id.
func validGameID(s string) bool {
	if s == "" || len(s) > maxGameIDLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// parseNat parses a canonical non-negative decimal of at most 4 digits.
func parseNat(s string) (int, bool) {
	if s == "" || len(s) > 4 || (s[0] == '0' && len(s) > 1) || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
