package render

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/boardbot/boardbot/session"
)

func TestCleanName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"alice", "alice"},
		{"  alice   smith ", "alice smith"},
		{"\x1b[31mmallory\x1b[0m", "[31mmallory[0m"},
		{"bob\x07\x00\x7f", "bob"},
		{"line\nbreak\ttab", "line break tab"},
		{"\u200b\u200b", ""},                           // zero-width spaces only
		{"\u3164", ""},                                 // Hangul filler
		{"\u2800\u2800", ""},                           // braille blanks
		{"a\u202edcba", "adcba"},                       // right-to-left override
		{"\u2066x\u2069", "x"},                         // isolates
		{"\ufeffeve", "eve"},                           // byte-order mark
		{"\u0301\u0301", ""},                           // marks with no letter
		{"e\u0301\u0301\u0301\u0301", "e\u0301\u0301"}, // zalgo capped
		{"👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},         // family emoji kept
		{"🏳\ufe0f\u200d🌈", "🏳\ufe0f\u200d🌈"},           // rainbow flag kept
		{"\u200da\u200d", "a"},                         // joiners at the ends
		{"a \u200d b", "a b"},                          // joiner beside a space
		{"李雷", "李雷"},
		{"1\ufe0f\u20e3", "1\ufe0f\u20e3"}, // keycap
		{strings.Repeat("w", 40), strings.Repeat("w", 31) + "…"},
		{"\uE000pua", "pua"}, // private use
	} {
		if got := CleanName(c.in); got != c.want {
			t.Errorf("CleanName(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
}

func TestInvisibleNamesShowAsPlayerAndTheirNumber(t *testing.T) {
	for _, c := range []struct {
		u    session.User
		l    Lang
		want string
	}{
		{session.User{ID: "123456789", Name: "\u200b"}, English, "Player 6789"},
		{session.User{ID: "123456789", Name: "\u3164"}, Chinese, "玩家 6789"},
		{session.User{ID: "as:x", Name: ""}, English, "Player asx"},
		{session.User{ID: "\u200b"}, English, "Player ?"},
		{session.User{ID: "1", Name: "\x1b]0;title\x07ann"}, English, "]0;titleann"},
	} {
		if got := SeatName(session.Seat{User: c.u}, c.l); got != c.want {
			t.Errorf("SeatName(%+q) = %+q, want %+q", c.u, got, c.want)
		}
	}
}

// FuzzCleanName checks what CleanName promises for any input: no control
// or format character but a joiner between visible characters, at most
// maxNameRunes characters, no space at either end, valid UTF-8, and the
// same result when cleaned again.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"alice", "\x1b[31mx", "\u200b", "👨\u200d👩", "e\u0301\u0301\u0301", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := CleanName(in)
		if !utf8.ValidString(got) {
			t.Fatalf("CleanName(%+q) = %+q: invalid UTF-8", in, got)
		}
		if n := utf8.RuneCountInString(got); n > maxNameRunes {
			t.Fatalf("CleanName(%+q) has %d runes", in, n)
		}
		if got != strings.TrimSpace(got) {
			t.Fatalf("CleanName(%+q) = %+q: spaces at an end", in, got)
		}
		rs := []rune(got)
		for i, r := range rs {
			if r == '\u200d' {
				if i == 0 || i == len(rs)-1 || !visible(rs[i+1]) {
					t.Fatalf("CleanName(%+q) = %+q: joiner at %d not between visible characters", in, got, i)
				}
				continue
			}
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || filler(r) {
				t.Fatalf("CleanName(%+q) = %+q: keeps %U", in, got, r)
			}
		}
		if again := CleanName(got); again != got && !strings.HasSuffix(got, "…") {
			t.Fatalf("CleanName is not stable: %+q → %+q → %+q", in, got, again)
		}
	})
}
