package session

import (
	"fmt"
	"testing"
)

func TestInboxKeepsUpdatesUntilHandledAcrossReopen(t *testing.T) {
	st, path := mustOpenStore(t)
	s := newTestService(st, 1)
	items := []InboxItem{{ID: 300, Data: []byte("c")}, {ID: -5, Data: []byte("a")}, {ID: 7, Data: []byte("b")}}
	if _, _, err := s.Receive(ctx, "telegram", items); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Receive(ctx, "telegramx", []InboxItem{{ID: 1, Data: []byte("other platform")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Handled(ctx, "telegram", 7); err != nil {
		t.Fatal(err)
	}
	if err := s.Handled(ctx, "telegram", 12345); err != nil {
		t.Fatalf("handling an unknown update: %v", err)
	}
	checkAndClose(t, st)

	st2, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkAndClose(t, st2) })
	got, err := newTestService(st2, 1).Pending(ctx, "telegram")
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprintf("%v", got); s != "[{-5 [97]} {300 [99]}]" {
		t.Fatalf("pending after reopen: %s, want ids -5 and 300 in order", s)
	}
}
