package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardbot/boardbot/adapters/web/webtest"
	"github.com/boardbot/boardbot/session"
)

// BenchmarkPageWeight reports the bytes the page costs a browser: its
// files as served, and gzipped.
func BenchmarkPageWeight(b *testing.B) {
	var raw, zipped int
	for range b.N {
		raw, zipped = 0, 0
		fs.WalkDir(pageFiles, "page", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, _ := pageFiles.ReadFile(path)
			var z bytes.Buffer
			w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
			w.Write(data)
			w.Close()
			raw, zipped = raw+len(data), zipped+z.Len()
			return nil
		})
	}
	b.ReportMetric(float64(raw), "bytes")
	b.ReportMetric(float64(zipped), "bytes-gzip")
}

// BenchmarkMoveRoundTrip plays 15×15 games against medium through the
// API, one move per iteration, and reports the round trip of a move (the
// POST until the answer with the AI's reply), p50 and p99.
func BenchmarkMoveRoundTrip(b *testing.B) {
	h := newWebHarness(b)
	var took []time.Duration
	game, tok := session.GameID(""), ""
	var s state
	for i := range b.N {
		if game == "" || !s.Running {
			v := h.play(fmt.Sprint(1000+i), "7", "gomoku medium")
			game, tok = v.ID(), h.token("7", v.ID())
			s = stateOf(v, "7", "en")
		}
		cell := freeCell(s, i)
		h.now.Add(1) // a second a move: the per-user rate limit lets it go
		start := time.Now()
		ans := h.act(tok, actRequest{Kind: "place", X: cell[0], Y: cell[1], MoveNo: len(s.Moves), Nonce: fmt.Sprintf("bench-move-%08d", i)})
		took = append(took, time.Since(start))
		if len(ans.State.Moves) != len(s.Moves)+2 && ans.State.Running {
			b.Fatalf("move %d: %d moves after, %d before; notices %q", i, len(ans.State.Moves), len(s.Moves), ans.Notices)
		}
		s = ans.State
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

// freeCell returns an empty cell of s near the centre, the i-th try.
func freeCell(s state, i int) [2]int {
	taken := map[[2]int]bool{}
	for _, m := range s.Moves {
		taken[m] = true
	}
	for r := 0; ; r++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				c := [2]int{s.Width/2 + dx, s.Height/2 + dy}
				if c[0] >= 0 && c[1] >= 0 && c[0] < s.Width && c[1] < s.Height && !taken[c] && (dx+dy+i)%3 != 0 {
					return c
				}
			}
		}
	}
}

// BenchmarkIdleViewers opens 1,000 event streams on one game, one per
// viewer, and reports the memory and goroutines each holds in the
// process (the server's side; the clients run in the same process and
// are counted too, so the figure is an upper bound). It measures once,
// whatever b.N: the streams of one round end asynchronously after they
// are closed, and would blur the next round's figures.
func BenchmarkIdleViewers(b *testing.B) {
	const viewers = 1000
	h := newWebHarness(b)
	v := h.play("2000", "8", "gomoku easy")
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	goroutines := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: viewers}}
	b.ResetTimer()
	for i := range viewers {
		tok := h.signer.Sign(Grant{Platform: "telegram", User: fmt.Sprint(10000 + i), Game: v.ID(), Expires: h.now.Load() + 3600})
		req, _ := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/events?t="+url.QueryEscape(tok), nil)
		res, err := client.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("viewer %d: %v %v", i, res, err)
		}
		if first := <-readEvents(res.Body); first.State.Game != v.ID() {
			b.Fatalf("viewer %d got %+v", i, first)
		}
	}
	b.StopTimer()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/viewers, "heap-bytes/viewer")
	b.ReportMetric(float64(runtime.NumGoroutine()-goroutines)/viewers, "goroutines/viewer")
}

// BenchmarkFirstRender opens a 15×15 board in headless Chromium, from the
// navigation until every cell is drawn.
func BenchmarkFirstRender(b *testing.B) {
	h := newWebHarness(b)
	v := h.play("3000", "9", "gomoku easy")
	link := h.srv.URL + "/#t=" + h.token("9", v.ID())
	page := webtest.Browser(b, 420, 800)
	b.ResetTimer()
	for range b.N {
		h.now.Add(1) // a second a load: the per-user rate limit lets it go
		if err := chromedp.Do(page, chromedp.Navigate("about:blank"), chromedp.Navigate(link)); err != nil {
			b.Fatal(err)
		}
		webtest.WaitFor(b, page, "the board", `document.querySelectorAll("#board .cell").length === 225`)
	}
}
