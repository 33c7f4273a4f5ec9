package console

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestOverlongLinesAreRefusedAndReadingGoesOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	long := strings.Repeat("x", 100<<10)
	out := run(t, path, long+"\n/play easy\n"+long+"\n5\n")
	if n := strings.Count(out, "That message is too long (character limit for a command: 200)."); n != 2 {
		t.Fatalf("want 2 too-long refusals, got %d:\n%.2000s", n, out)
	}
	if strings.Contains(out, "xxxxxxxxxx") {
		t.Error("the overlong line is echoed back")
	}
	// The game started after the first long line, and the tap after the
	// second one was taken: the terminal user's stone is on the board.
	if !strings.Contains(out, "AI (easy)") || strings.Count(out, "❌") < 3 {
		t.Fatalf("the game did not go on after the long lines:\n%s", out)
	}
}

func TestLastLineWithoutNewline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, path, "/play easy")
	if !strings.Contains(out, "AI (easy)") {
		t.Fatalf("a last line with no newline was not taken:\n%s", out)
	}
}

// zeros is an endless stream of 'a' that ends after n bytes with a
// newline, then "ok\n": a line far longer than memory should hold.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n < 0 {
		return 0, io.EOF
	}
	if z.n == 0 {
		z.n = -1
		return copy(p, "\nok\n"), nil
	}
	k := min(len(p), z.n)
	for i := range k {
		p[i] = 'a'
	}
	z.n -= k
	return k, nil
}

func TestTenMegabyteLineHoldsNoCopyOfIt(t *testing.T) {
	lr := newLineReader(&zeros{n: 10 << 20})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line, tooLong, err := lr.next()
	runtime.ReadMemStats(&after)
	if err != nil || !tooLong || len(line) != maxLine {
		t.Fatalf("next = %d bytes, tooLong %v, err %v; want %d bytes, too long", len(line), tooLong, err, maxLine)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading a 10 MiB line allocated %d bytes; want well under 1 MiB", got)
	}
	if line, tooLong, err = lr.next(); line != "ok" || tooLong || err != nil {
		t.Fatalf("the line after the long one = %q, %v, %v; want \"ok\"", line, tooLong, err)
	}
	if _, _, err = lr.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: err %v, want io.EOF", err)
	}
}

// FuzzLineReader checks that the reader gives back the input's lines,
// each cut at maxLine bytes and flagged when it was cut.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"), 3)
	f.Add([]byte("\n\n"), 1)
	f.Add([]byte(strings.Repeat("y", 9000)+"\nz"), 2)
	f.Fuzz(func(t *testing.T, data []byte, pad int) {
		// pad stretches the input past maxLine now and then.
		if pad > 0 && pad < 5 {
			data = append(bytes.Repeat([]byte("p"), pad*maxLine/2), data...)
		}
		want := strings.Split(string(data), "\n")
		if len(want) > 0 && want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		lr := newLineReader(bytes.NewReader(data))
		for i, w := range want {
			got, tooLong, err := lr.next()
			if err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
			if len(w) >= maxLine {
				if !tooLong || got != w[:maxLine] {
					t.Fatalf("line %d of %d bytes: got %d bytes, tooLong %v", i, len(w), len(got), tooLong)
				}
				continue
			}
			if tooLong || got != strings.TrimSuffix(w, "\r") {
				t.Fatalf("line %d: got %q (tooLong %v), want %q", i, got, tooLong, w)
			}
		}
		if _, _, err := lr.next(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the last line: err %v", err)
		}
	})
}

func TestNamesAreCleanedInTheTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, path, "/as \x1b[31mred\n/as \u200b\n/as bob\n")
	if strings.ContainsAny(out, "\x1b\u200b") {
		t.Fatalf("the terminal printed a control or format character:\n%+q", out)
	}
	if !strings.Contains(out, "You are now bob.") || strings.Contains(out, "You are now [31mred") {
		t.Fatalf("want only bob taken as a name:\n%s", out)
	}
}
