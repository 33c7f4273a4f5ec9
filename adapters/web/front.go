package web

import (
	"context"
	"sync"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
)

// pageFront is the front of one request from the page. It speaks for the
// game's own platform, so that the boards a decision shows go to the
// chat's message through chat, that platform's front; what is for the
// actor alone (notices, texts, files) is kept for the page's answer.
type pageFront struct {
	platform session.Platform
	chat     adapters.Front // nil: the chat's messages are left alone

	mu      sync.Mutex
	notices []string
}

// Platform returns the game's platform.
func (f *pageFront) Platform() session.Platform { return f.platform }

// Notify keeps text for the page.
func (f *pageFront) Notify(_ context.Context, text string) error {
	f.note(text)
	return nil
}

// Send keeps a text for the page, and posts a board in the chat.
func (f *pageFront) Send(ctx context.Context, chat string, m adapters.Message) (string, error) {
	if m.Game == nil {
		f.note(m.Text)
		return "", nil
	}
	if f.chat == nil {
		return "", nil
	}
	return f.chat.Send(ctx, chat, m)
}

// Edit changes the chat's board message.
func (f *pageFront) Edit(ctx context.Context, at adapters.Place, m adapters.Message) error {
	if f.chat == nil {
		return nil
	}
	return f.chat.Edit(ctx, at, m)
}

// Attach keeps a file's caption for the page: the page shows the game
// itself, and what a chat sends as a file (a replay, a record) the page
// does its own way.
func (f *pageFront) Attach(_ context.Context, file adapters.File) error {
	if file.Kind == adapters.Record {
		f.note(file.Caption)
	}
	return nil
}

func (f *pageFront) note(text string) {
	if text == "" {
		return
	}
	f.mu.Lock()
	f.notices = append(f.notices, text)
	f.mu.Unlock()
}

// said returns what was kept for the page.
func (f *pageFront) said() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.notices...)
}
