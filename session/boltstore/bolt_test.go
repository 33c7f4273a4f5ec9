package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// TestGroupCommitIsolatesFailures runs many concurrent Updates, some of
// which write and then fail or panic: every failing one gets its own error
// and leaves no trace, every other one commits.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	db, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := session.NewStore(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	errOdd := errors.New("odd")
	const n = 200
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = st.Update(ctx, func(tx session.Tx) error {
				if err := tx.PutUserSettings("test", fmt.Sprint(i), session.UserSettings{Lang: "en"}); err != nil {
					return err
				}
				switch i % 4 {
				case 1:
					return fmt.Errorf("call %d: %w", i, errOdd)
				case 3:
					panic("boom")
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		var us session.UserSettings
		if verr := st.View(ctx, func(tx session.Tx) error {
			var err error
			us, err = tx.UserSettings("test", fmt.Sprint(i))
			return err
		}); verr != nil {
			t.Fatal(verr)
		}
		switch i % 4 {
		case 1:
			if !errors.Is(err, errOdd) || us.Lang != "" {
				t.Errorf("call %d: %v, stored %q; want its error and nothing stored", i, err, us.Lang)
			}
		case 3:
			if err == nil || us.Lang != "" {
				t.Errorf("call %d panicked: %v, stored %q", i, err, us.Lang)
			}
		default:
			if err != nil || us.Lang != "en" {
				t.Errorf("call %d: %v, stored %q", i, err, us.Lang)
			}
		}
	}
}
