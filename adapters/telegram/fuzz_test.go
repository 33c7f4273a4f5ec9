package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// lockedBuffer is a buffer that logs may be written to from several
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// FuzzWebhookUpdate hands webhook bodies, decoded as the webhook decodes
// them, to a real bot on a real store and fake Bot API, and fails when
// handling one panics (the bot recovers and logs it, so the log tells).
func FuzzWebhookUpdate(f *testing.F) {
	for _, s := range []string{
		`{"update_id":1,"message":{"message_id":1,"from":{"id":2,"first_name":"a"},"chat":{"id":-3,"type":"group"},"text":"/duel x","entities":[{"type":"text_mention","offset":6,"length":1,"user":{"id":4,"first_name":"b"}}]}}`,
		`{"update_id":2,"message":{"message_id":1,"from":{"id":2,"first_name":"a"},"chat":{"id":-3,"type":"group"},"text":"/duel","entities":[{"type":"text_mention","offset":9223372036854775807,"length":9223372036854775807,"user":{"id":4}}]}}`,
		`{"update_id":3,"message":{"message_id":2,"from":{"id":2,"first_name":"a"},"chat":{"id":-3,"type":"group"},"text":"/duel 7x7","reply_to_message":{"message_id":1,"from":{"id":5,"first_name":"c"},"chat":{"id":-3,"type":"group"}}}}`,
		`{"update_id":4,"callback_query":{"id":"q","from":{"id":2,"first_name":"a"},"message":{"message_id":9,"chat":{"id":2,"type":"private"}},"data":"p:1:0:1:1"}}`,
		`{"update_id":5,"message":{"message_id":3,"from":{"id":2,"first_name":"\u200b"},"chat":{"id":2,"type":"private"},"text":"/play hard 4x4"}}`,
		`{"update_id":6,"message":{"message_id":4,"from":{"id":2},"chat":{"id":2,"type":"private"},"text":"b2"}}`,
	} {
		f.Add([]byte(s))
	}
	fake := telegramtest.NewServer()
	f.Cleanup(fake.Close)
	store, err := boltstore.Open(filepath.Join(f.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	seed := uint64(0)
	var seedMu sync.Mutex
	svc := session.New(store, &session.Config{ThinkTime: time.Millisecond, NewSeed: func() uint64 {
		seedMu.Lock()
		defer seedMu.Unlock()
		seed++
		return seed
	}})
	logs := &lockedBuffer{}
	unlimited := Rate{N: -1}
	b, err := New(context.Background(), svc, Config{
		Token: telegramtest.Token, APIEndpoint: fake.Endpoint(), MaxRetries: -1,
		Log:  slog.New(slog.NewTextHandler(logs, nil)),
		Pace: Pace{Chat: unlimited, Group: unlimited, Global: unlimited},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var u tgbotapi.Update
		if json.Unmarshal(body, &u) != nil {
			return
		}
		logs.Reset()
		b.handle(context.Background(), u, nil)
		if l := logs.String(); strings.Contains(l, "panic") {
			t.Fatalf("handling %s panicked:\n%s", body, l)
		}
	})
}
