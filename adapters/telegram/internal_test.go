package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/storetest"
)

// grid returns a keyboard of rows with the given widths, cells placing
// stones.
func grid(widths ...int) render.Keyboard {
	var kb render.Keyboard
	for y, w := range widths {
		row := make([]render.Button, w)
		for x := range row {
			row[x] = render.Button{Label: "·", Action: render.Action{Kind: render.Place, Game: "g1", MoveNo: 360, Cell: engine.Point{X: x, Y: y}}}
		}
		kb.Rows = append(kb.Rows, row)
	}
	return kb
}

func TestInlineKeyboardKeepsTelegramLimits(t *testing.T) {
	resign := []render.Button{{Label: "🏳", Action: render.Action{Kind: render.Resign, Game: "g1"}}}
	tests := []struct {
		name  string
		kb    render.Keyboard
		rows  int // rows kept
		first int // board row number of the first row kept, or -1 for the control row
	}{
		{"8 columns fit", grid(8, 8, 8, 8, 8, 8, 8, 8), 8, 0},
		{"9 columns dropped", grid(9, 9, 9), 0, 0},
		{"19 columns keep the controls", render.Keyboard{Rows: append(grid(19, 19).Rows, resign)}, 1, -1},
		{"over 100 buttons lose top rows", render.Keyboard{Rows: append(grid(8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8).Rows, resign)}, 13, 1},
		{"empty", render.Keyboard{}, 0, 0},
	}
	for _, tt := range tests {
		k := inlineKeyboard(tt.kb)
		if tt.rows == 0 {
			if k != nil {
				t.Errorf("%s: %v", tt.name, k)
			}
			continue
		}
		n := 0
		for _, row := range k.InlineKeyboard {
			if len(row) > MaxRowButtons {
				t.Errorf("%s: row of %d", tt.name, len(row))
			}
			for _, b := range row {
				n++
				if b.CallbackData == nil || len(*b.CallbackData) == 0 || len(*b.CallbackData) > adapters.MaxCallbackLen {
					t.Errorf("%s: callback data %v", tt.name, b.CallbackData)
				}
			}
		}
		if n > MaxButtons || len(k.InlineKeyboard) != tt.rows {
			t.Errorf("%s: %d buttons in %d rows, want %d rows", tt.name, n, len(k.InlineKeyboard), tt.rows)
			continue
		}
		first := *k.InlineKeyboard[0][0].CallbackData
		want := "r:g1"
		if tt.first >= 0 {
			want = fmt.Sprintf("p:g1:360:0:%d", tt.first)
		}
		if first != want {
			t.Errorf("%s: first button %q, want %q", tt.name, first, want)
		}
	}
}

func TestMenuDataRoundTrips(t *testing.T) {
	for _, l := range render.Langs {
		for _, row := range gamesMenu(l).InlineKeyboard {
			for _, b := range row {
				c, ok := parseMenu(*b.CallbackData)
				if !ok || c.game == nil || c.level != 0 {
					t.Errorf("game button %q → %+v, %v", *b.CallbackData, c, ok)
					continue
				}
				for _, lrow := range levelsMenu(l, c.game).InlineKeyboard {
					for _, lb := range lrow {
						if _, ok := parseMenu(*lb.CallbackData); !ok || len(*lb.CallbackData) > adapters.MaxCallbackLen {
							t.Errorf("level button %q", *lb.CallbackData)
						}
					}
				}
			}
		}
	}
	for _, bad := range []string{"m:", "m:ttt:", "m:ttt:hard:x", "m:TTT", "m:ttt:Hard", "mm", "m:chess", "m:" + strings.Repeat("x", 70)} {
		if c, ok := parseMenu(bad); ok {
			t.Errorf("parseMenu(%q) = %+v", bad, c)
		}
	}
}

func FuzzParseMenu(f *testing.F) {
	for _, s := range []string{"m", "m:ttt", "m:gomoku:hard", "m:7x7:easy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := parseMenu(s)
		if !ok {
			return
		}
		again := menuPrefix
		if c.game != nil {
			again += ":" + c.game.preset
			if c.level != 0 {
				again += ":" + c.level.String()
			}
		}
		if again != s {
			t.Fatalf("%q parsed to %q", s, again)
		}
	})
}

func TestClassify(t *testing.T) {
	const token = "123:secret"
	tests := []struct {
		err  error
		kind error
		code int
		wait time.Duration
	}{
		{&tgbotapi.Error{Code: 429, Message: "Too Many Requests: retry after 5", ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 5}}, ErrFlood, 429, 5 * time.Second},
		// Uploads lose the code: the description and parameters still tell.
		{&tgbotapi.Error{Message: "Too Many Requests: retry after 3", ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 3}}, ErrFlood, 0, 3 * time.Second},
		{tgbotapi.Error{Code: 400, Message: "Bad Request: message is not modified: specified new message content"}, ErrNotModified, 400, 0},
		{&tgbotapi.Error{Code: 502, Message: "Bad Gateway"}, ErrTransient, 502, 0},
		{&tgbotapi.Error{Code: 400, Message: "Bad Request: chat not found"}, nil, 400, 0},
		{&url.Error{Op: "Post", URL: "https://api.telegram.org/bot" + token + "/getMe", Err: errors.New("connection refused")}, ErrTransient, 0, 0},
		{errors.New("invalid character '<' looking for beginning of value"), ErrTransient, 0, 0},
	}
	for _, tt := range tests {
		err := classify("m", token, tt.err)
		var ae *APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%v: not an APIError: %v", tt.err, err)
		}
		if tt.kind != nil && !errors.Is(err, tt.kind) || tt.kind == nil && ae.Unwrap() != nil || ae.Code != tt.code || ae.RetryAfter != tt.wait {
			t.Errorf("%v → %#v", tt.err, ae)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("the token leaked: %v", err)
		}
	}
	// A context's end stays visible, without the URL.
	for _, cause := range []error{context.Canceled, context.DeadlineExceeded} {
		for _, in := range []error{cause, &url.Error{Op: "Post", URL: "http://127.0.0.1:1/bot" + token + "/getUpdates", Err: cause}} {
			err := classify("m", token, in)
			var ae *APIError
			if !errors.As(err, &ae) || !errors.Is(err, cause) || strings.Contains(err.Error(), "secret") {
				t.Errorf("%v became %v", in, err)
			}
		}
	}
}

func TestSchedulerOrdersChatsAndBoundsWorkers(t *testing.T) {
	s := newScheduler(3, 64)
	var mu sync.Mutex
	got := map[int64][]int{}
	running, peak := 0, 0
	release := make(chan struct{})
	for i := range 30 {
		chat := int64(i % 5)
		err := s.submit(context.Background(), chat, func() {
			mu.Lock()
			running++
			peak = max(peak, running)
			got[chat] = append(got[chat], i)
			mu.Unlock()
			<-release
			mu.Lock()
			running--
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	s.close()
	if peak > 3 {
		t.Fatalf("%d jobs ran at once with 3 workers", peak)
	}
	for chat, seq := range got {
		for j := 1; j < len(seq); j++ {
			if seq[j] < seq[j-1] {
				t.Fatalf("chat %d ran out of order: %v", chat, seq)
			}
		}
		if len(seq) != 6 {
			t.Fatalf("chat %d ran %d jobs", chat, len(seq))
		}
	}
	if err := s.submit(context.Background(), 1, func() {}); !errors.Is(err, errClosed) {
		t.Fatalf("submit after close: %v", err)
	}
}

func TestSchedulerSubmitWaitsForRoom(t *testing.T) {
	s := newScheduler(1, 1)
	defer s.close()
	release := make(chan struct{})
	if err := s.submit(context.Background(), 1, func() { <-release }); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.submit(ctx, 2, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("full queue: %v", err)
	}
	close(release)
}

// workers returns the number of worker goroutines.
func (s *scheduler) workers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

func TestSchedulerLendsTheWorkerOfAWaitingJob(t *testing.T) {
	s := newScheduler(2, 64)
	defer s.close()
	submit := func(chat int64, job func()) {
		t.Helper()
		if err := s.submit(context.Background(), chat, job); err != nil {
			t.Fatal(err)
		}
	}
	// Both workers' jobs block in lend.
	waiting := make(chan struct{})
	release := []chan struct{}{make(chan struct{}), make(chan struct{})}
	for chat := range int64(2) {
		submit(chat, func() {
			s.lend(func() {
				waiting <- struct{}{}
				<-release[chat]
			})
		})
	}
	<-waiting
	<-waiting
	if n := s.workers(); n != 4 {
		t.Fatalf("%d workers while 2 of 2 lend theirs, want 4", n)
	}
	// Two other chats' jobs run at once meanwhile: each waits for the
	// other.
	meet, done := make(chan struct{}), make(chan struct{}, 2)
	submit(2, func() { meet <- struct{}{}; done <- struct{}{} })
	submit(3, func() { <-meet; done <- struct{}{} })
	<-done
	<-done
	// Each wait that ends takes its extra worker back: a chat's next job
	// runs after its lending job, and sees the workers asked for plus the
	// lends still waiting.
	counts := make(chan int)
	for chat := range int64(2) {
		submit(chat, func() { counts <- s.workers() })
	}
	for chat, want := range []int{3, 2} {
		close(release[chat])
		if n := <-counts; n != want {
			t.Fatalf("%d workers after %d waits ended, want %d", n, chat+1, want)
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no token":       {},
		"bad mode":       {Token: "t", Mode: "carrier-pigeon"},
		"webhook no url": {Token: "t", Mode: ModeWebhook, Webhook: WebhookConfig{Listen: ":0", Secret: "abc"}},
		"webhook secret": {Token: "t", Mode: ModeWebhook, Webhook: WebhookConfig{Listen: ":0", URL: "https://x/y", Secret: "no spaces"}},
		"webhook listen": {Token: "t", Mode: ModeWebhook, Webhook: WebhookConfig{URL: "https://x/y", Secret: "abc"}},
	} {
		if _, err := New(context.Background(), nil, cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDefaultSlowMoveIsHardOnBigBoards(t *testing.T) {
	store, err := storetest.OpenBolt(filepath.Join(t.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := session.New(store, &session.Config{NewSeed: func() uint64 { return 1 }})
	for i, tt := range []struct {
		preset string
		level  engine.Level
		slow   bool
	}{
		{"ttt", engine.Hard, false},
		{"5x5", engine.Hard, false},
		{"7x7", engine.Hard, true},
		{"gomoku", engine.Hard, true},
		{"gomoku", engine.Medium, false},
	} {
		rules, _ := engine.Preset(tt.preset)
		who := session.Actor{Platform: Platform, Chat: "c", User: session.User{ID: fmt.Sprint(i)}}
		v, err := svc.Start(context.Background(), who, session.StartRequest{Rules: rules, Level: tt.level})
		if err != nil {
			t.Fatal(err)
		}
		if got := slowMove(v); got != tt.slow {
			t.Errorf("%s %v: slow %v", tt.preset, tt.level, got)
		}
	}
}
