package render

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

func TestCatalogHasEveryLanguage(t *testing.T) {
	for k, m := range catalog {
		for _, l := range Langs {
			if m[l] == "" {
				t.Errorf("message %q has no %s text", k, l)
			}
		}
	}
}

func TestLangOf(t *testing.T) {
	for code, want := range map[string]Lang{"en": English, "en-US": English, "zh": Chinese, "zh-CN": Chinese, "zh-hans": Chinese, "ZH_tw": Chinese, "fr": English, "": English, "zhx": English} {
		if got := LangOf(code); got != want {
			t.Errorf("LangOf(%q) = %s, want %s", code, got, want)
		}
	}
}

func TestErrorText(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", session.ErrNotYourTurn)
	if got := ErrorText(Chinese, err); got != catalog[MsgNotYourTurn][Chinese] {
		t.Errorf("ErrorText = %q", got)
	}
	if got := ErrorText(English, errors.New("disk on fire")); got != catalog[MsgInternal][English] || strings.Contains(got, "disk") {
		t.Errorf("unknown errors must not leak: %q", got)
	}
}

func TestCoords(t *testing.T) {
	gomoku, _ := engine.Preset("gomoku")
	ttt := engine.TicTacToe()
	tests := []struct {
		in   string
		r    engine.Rules
		want engine.Point
		ok   bool
	}{
		{"h8", gomoku, engine.Point{X: 7, Y: 7}, true},
		{"H 8", gomoku, engine.Point{X: 7, Y: 7}, true},
		{"8h", gomoku, engine.Point{X: 7, Y: 7}, true},
		{"a1", gomoku, engine.Point{X: 0, Y: 14}, true},
		{"o15", gomoku, engine.Point{X: 14, Y: 0}, true},
		{"b2", ttt, engine.Point{X: 1, Y: 1}, true},
		{"a3", ttt, engine.Point{X: 0, Y: 0}, true},
		{"p1", gomoku, engine.Point{}, false},
		{"a16", gomoku, engine.Point{}, false},
		{"a0", gomoku, engine.Point{}, false},
		{"a08", gomoku, engine.Point{}, false},
		{"d1", ttt, engine.Point{}, false},
		{"hello", gomoku, engine.Point{}, false},
		{"", gomoku, engine.Point{}, false},
		{"h-8", gomoku, engine.Point{}, false},
		{"h８", gomoku, engine.Point{}, false},
	}
	for _, tt := range tests {
		got, err := ParseCoord(tt.in, tt.r)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseCoord(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrBadCoord) {
			t.Errorf("ParseCoord(%q) error %v is not ErrBadCoord", tt.in, err)
		}
	}
	r := engine.Rules{Width: 19, Height: 19, K: 5}
	for y := range 19 {
		for x := range 19 {
			p := engine.Point{X: x, Y: y}
			if got, err := ParseCoord(FormatCoord(p, r), r); err != nil || got != p {
				t.Fatalf("round trip %v → %q → %v, %v", p, FormatCoord(p, r), got, err)
			}
		}
	}
}

func FuzzParseCoord(f *testing.F) {
	for _, s := range []string{"h8", "H 8", "8h", "s19", "a0", "zz", "1", "é1"} {
		f.Add(s)
	}
	r := engine.Rules{Width: 19, Height: 19, K: 5}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseCoord(s, r)
		if err != nil {
			return
		}
		if !r.Contains(p) {
			t.Fatalf("%q parsed to off-board %v", s, p)
		}
		if back, err := ParseCoord(FormatCoord(p, r), r); err != nil || back != p {
			t.Fatalf("%q → %v does not round trip", s, p)
		}
	})
}

// playedView starts a 3×3 game for alice against medium and plays the
// given cells for her.
func playedView(t *testing.T, cells ...engine.Point) session.View {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "r.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := session.New(st, &session.Config{NewSeed: func() uint64 { return 1 }})
	ctx := context.Background()
	who := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "1", Name: "alice"}}
	v, err := svc.Begin(ctx, session.Request{Actor: who}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Medium})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if v, err = svc.Begin(ctx, session.Request{Actor: who}).Place(session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: c}); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

func TestTextShowsLastMoveAndResult(t *testing.T) {
	v := playedView(t, engine.Point{X: 0, Y: 0})
	// alice X at a3; medium O takes the centre, marked as the last move.
	want := "▪️🇦\u200c🇧\u200c🇨\n3️⃣❌⬜⬜\n2️⃣⬜🅾️⬜\n1️⃣⬜⬜⬜\n"
	if g := Grid(v); g != want {
		t.Fatalf("grid:\n%s\nwant:\n%s", g, want)
	}
	text := Text(v, English)
	for _, s := range []string{"❌ alice", "⭕ AI (medium)", "❌ alice to move"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	if zh := Text(v, Chinese); !strings.Contains(zh, "轮到 ❌ alice") {
		t.Errorf("chinese text:\n%s", zh)
	}
}

func TestKeyboardLiveOnlyOnEmptyCells(t *testing.T) {
	v := playedView(t, engine.Point{X: 0, Y: 0})
	kb := BoardKeyboard(v, English, TelegramLayout, nil)
	if len(kb.Rows) != 4 || kb.Buttons() != 11 {
		t.Fatalf("rows %d buttons %d, want 3 board rows + resign and undo", len(kb.Rows), kb.Buttons())
	}
	for y := range 3 {
		for x := range 3 {
			b := kb.Rows[y][x]
			empty := !(x == 0 && y == 0) && !(x == 1 && y == 1)
			if empty != (b.Action.Kind == Place) {
				t.Errorf("cell %d,%d: action %v", x, y, b.Action)
			}
			if empty && (b.Action.Cell != engine.Point{X: x, Y: y} || b.Action.MoveNo != 2 || b.Action.Game != v.ID()) {
				t.Errorf("cell %d,%d: action %+v", x, y, b.Action)
			}
		}
	}
	if kb.Rows[3][0].Action.Kind != Resign {
		t.Errorf("last row is %+v", kb.Rows[3])
	}
}
