package session

import (
	"context"
	"errors"
	"testing"
)

// TestFocusIsPerChatAndUserAndSurvivesReopening checks that the game a
// user last saw is kept per platform, chat and user, survives reopening
// the file, and that recording it again writes nothing.
func TestFocusIsPerChatAndUserAndSurvivesReopening(t *testing.T) {
	ctx := context.Background()
	st, path := mustOpenStore(t)
	s := newTestService(st, 1)
	ann := as(User{ID: "ann"})
	if _, err := s.Focus(ctx, ann); !errors.Is(err, ErrNotFound) {
		t.Fatalf("focus of nobody yet: %v", err)
	}
	if err := s.SetFocus(ctx, ann, "7"); err != nil {
		t.Fatal(err)
	}
	other := ann
	other.Chat = "c2"
	if err := s.SetFocus(ctx, other, "8"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetFocus(ctx, as(User{}), "8"); !errors.Is(err, ErrBadRequest) {
		t.Fatalf("focus of no user: %v", err)
	}
	stats := st.DB().Stats()
	tx := stats.TxStats.GetWrite()
	if err := s.SetFocus(ctx, ann, "7"); err != nil {
		t.Fatal(err)
	}
	after := st.DB().Stats()
	if got := after.TxStats.GetWrite(); got != tx {
		t.Errorf("recording the same focus wrote %d pages", got-tx)
	}
	checkAndClose(t, st)
	st, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkAndClose(t, st) })
	s = newTestService(st, 1)
	for who, want := range map[Actor]GameID{ann: "7", other: "8"} {
		if id, err := s.Focus(ctx, who); err != nil || id != want {
			t.Errorf("focus of %+v after reopening: %q, %v; want %q", who, id, err, want)
		}
	}
}
