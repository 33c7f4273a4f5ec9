package render

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name.golden, or rewrites the file
// under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n%s\nwant:\n%s", name, path, got, want)
	}
}

func TestTextGolden(t *testing.T) {
	svc, st := fixtureStore(t)
	for _, size := range []int{3, 7, 19} {
		r := engine.Rules{Width: size, Height: size, K: min(size, 5)}
		for _, state := range []string{inProgress, won, drawn} {
			v := fixture(t, svc, st, r, state)
			for _, l := range Langs {
				name := strings.Join([]string{"text", r.String(), state, string(l)}, "_")
				name = strings.ReplaceAll(name, " ", "")
				golden(t, name, Text(v, l))
			}
		}
	}
}

func TestStatusSaysWhyTheGameEnded(t *testing.T) {
	svc, st := fixtureStore(t)
	r := engine.TicTacToe()
	moves, _, _ := fixtureMoves(r, inProgress)
	for _, tt := range []struct {
		status session.Status
		winner engine.Stone
		en, zh string
	}{
		{session.Running, engine.Empty, "❌ alice to move", "轮到 ❌ alice"},
		{session.Resigned, engine.White, "❌ alice resigned. Winner: ⭕ AI (hard).", "❌ alice 认输了。获胜：⭕ AI（困难）。"},
		{session.Expired, engine.Empty, "The game expired.", "对局已超时。"},
		{session.Expired, engine.Black, "The game expired. ⭕ AI (hard) ran out of time. Winner: ❌ alice.", "对局已超时。⭕ AI（困难） 超时。获胜：❌ alice。"},
		{session.Aborted, engine.Empty, "Game aborted: it ended before both players moved. No winner, no rating change.", "对局已中止：双方还没都落子就结束了。不计胜负，不影响积分。"},
	} {
		v := storedView(t, svc, st, r, moves, tt.status, tt.winner)
		if got := Status(v, English); got != tt.en {
			t.Errorf("%s: %q, want %q", tt.status, got, tt.en)
		}
		if got := Status(v, Chinese); got != tt.zh {
			t.Errorf("%s: %q, want %q", tt.status, got, tt.zh)
		}
	}
	won := fixture(t, svc, st, r, won)
	if got := Status(won, English); got != "Winner: ❌ alice, with three in a row." {
		t.Errorf("won: %q", got)
	}
	drawn := fixture(t, svc, st, r, drawn)
	if got := Status(drawn, Chinese); got != "平局：棋盘已满。" {
		t.Errorf("drawn: %q", got)
	}
}

func TestTextFitsThePlatformsOnEveryBoard(t *testing.T) {
	svc, _ := fixtureStore(t)
	long := session.User{ID: "9", Name: strings.Repeat("名", 200)}
	ctx := t.Context()
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		// An empty board is the longest text: 🟫 is two UTF-16 units, a
		// stone one. The person has a very long name.
		v, err := svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: "t", Chat: name, User: long}}).Start(session.StartRequest{Rules: r, Level: engine.Easy})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range Langs {
			text := Text(v, l)
			n := TextLen(text)
			if n > DiscordTextLimit || n > TelegramTextLimit || len([]rune(text)) > DiscordTextLimit {
				t.Errorf("%s %s: %d UTF-16 units", name, l, n)
			}
			if strings.Contains(text, strings.Repeat("名", maxNameRunes)) {
				t.Errorf("%s: long name not cut:\n%s", name, text)
			}
			t.Logf("%s %s: %d UTF-16 units, %d bytes", name, l, n, len(text))
		}
	}
}

func TestGridLinesAreEqualGlyphCounts(t *testing.T) {
	// Every line of a labelled board is the same number of glyphs wide:
	// count grapheme-ish units (a keycap, a stone with its variation
	// selector and a regional indicator each count one).
	svc, st := fixtureStore(t)
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		v := fixture(t, svc, st, r, inProgress)
		lines := strings.Split(strings.TrimSuffix(Grid(v), "\n"), "\n")
		// Every board has its labels, 3×3 too: "b2" is its centre.
		want := r.Width + rowLabelWidth(r)
		if len(lines) != r.Height+1 {
			t.Fatalf("%s: %d lines", name, len(lines))
		}
		for i, line := range lines {
			if n := glyphCount(line); n != want {
				t.Errorf("%s line %d is %d glyphs, want %d: %q", name, i, n, want, line)
			}
		}
	}
}

// glyphCount counts the glyphs of a board line: every rune that is not a
// variation selector, keycap mark or zero-width non-joiner, where a digit
// followed by a keycap mark counts once.
func glyphCount(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case '\uFE0F', '\u20E3', '\u200C':
			continue
		}
		n++
	}
	return n
}

func TestHeaderHasNoFlags(t *testing.T) {
	// Two regional indicators side by side would be a flag; each pair in
	// the header is split by a zero-width non-joiner.
	r := engine.Rules{Width: 19, Height: 19, K: 5}
	h := []rune(emojiColumnHeader(r))
	for i := 1; i < len(h); i++ {
		if isRI(h[i]) && isRI(h[i-1]) {
			t.Fatalf("adjacent regional indicators at %d: %q", i, string(h))
		}
	}
	if n := strings.Count(string(h), zwnj); n != 18 {
		t.Errorf("%d separators, want 18", n)
	}
}

func isRI(r rune) bool { return r >= riA && r <= riA+25 }
