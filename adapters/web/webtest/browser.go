// Package webtest drives a real headless browser, Debian's chromium,
// for the tests of the web board.
package webtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Browser starts a headless Chromium of viewport w×h for the test and
// returns its context. It reaches no host but loopback: every other
// name resolves to nothing, so Telegram's script fails to load, as it
// does in the tests' sandbox.
func Browser(t testing.TB, w, h int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("the browser tests need Debian's chromium (apt-get install chromium; .ci/run installs it)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(w, h),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first action starts the browser: no timeout on its context.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Screenshot writes the page to $BOARDBOT_SCREENSHOTS/name.png when the
// variable is set, for a person to look at.
func Screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("BOARDBOT_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Count returns how many elements match a CSS selector.
func Count(t testing.TB, ctx context.Context, sel string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// WaitFor waits until the JavaScript expression is true on the page, and
// fails the test with the page's text when it does not come true.
func WaitFor(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		// A navigation still settling replaced the page's JavaScript
		// context under the poll: poll the new one.
		if strings.Contains(err.Error(), "Cannot find context with specified id") && time.Now().Before(deadline) {
			continue
		}
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.innerText"))
		t.Fatalf("waiting for %s: %v\npage:\n%s", what, err, body)
	}
}

// Cell selects the board's cell x, y (y counted from the top).
func Cell(x, y int) string { return fmt.Sprintf(`#board .cell[data-x="%d"][data-y="%d"]`, x, y) }

// Open opens url and waits until the board shows cells cells.
func Open(t testing.TB, ctx context.Context, url string, cells int) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, ctx, "the board", fmt.Sprintf(`document.querySelectorAll("#board .cell").length === %d`, cells))
}

// Tap taps cell x, y and waits until the board shows stones stones.
func Tap(t testing.TB, ctx context.Context, x, y, stones int) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(Cell(x, y)))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, ctx, fmt.Sprintf("%d stones after the tap on %d,%d", stones, x, y), fmt.Sprintf(`document.querySelectorAll("#board .stone").length === %d`, stones))
}
