package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
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
	st := db
	ctx := context.Background()
	errOdd := errors.New("odd")
	const n = 200
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = st.Update(ctx, func(tx kv.Tx) error {
				if err := tx.Put([]byte("s"), []byte(fmt.Sprint(i)), []byte("en")); err != nil {
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
		var lang string
		if verr := st.View(ctx, func(tx kv.Tx) error {
			v, err := tx.Get([]byte("s"), []byte(fmt.Sprint(i)))
			lang = string(v)
			return err
		}); verr != nil {
			t.Fatal(verr)
		}
		switch i % 4 {
		case 1:
			if !errors.Is(err, errOdd) || lang != "" {
				t.Errorf("call %d: %v, stored %q; want its error and nothing stored", i, err, lang)
			}
		case 3:
			if err == nil || lang != "" {
				t.Errorf("call %d panicked: %v, stored %q", i, err, lang)
			}
		default:
			if err != nil || lang != "en" {
				t.Errorf("call %d: %v, stored %q", i, err, lang)
			}
		}
	}
}
