package kv_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// TestCounter counts the transactions made through a Counter on a bbolt
// store: each View, each run of an Update's function and each Begin
// (again after a conflict), not the reads or the Commit of a Txn.
func TestCounter(t *testing.T) {
	db, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := kv.Count(db)
	ctx := context.Background()
	b, k := []byte("b"), []byte("k")
	step := func(what string, want uint64, f func() error) {
		t.Helper()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := c.Transactions(); got != want {
			t.Errorf("after %s: %d transactions, want %d", what, got, want)
		}
	}
	step("nothing", 0, func() error { return nil })
	step("a View", 1, func() error {
		return c.View(ctx, func(tx kv.Tx) error { _, err := tx.Get(b, k); return err })
	})
	step("an Update", 2, func() error {
		return c.Update(ctx, func(tx kv.Tx) error { return tx.Put(b, k, []byte("1")) })
	})
	errFail := errors.New("fail")
	step("a failing Update", 3, func() error {
		if err := c.Update(ctx, func(tx kv.Tx) error { return errFail }); !errors.Is(err, errFail) {
			return err
		}
		return nil
	})
	var tx kv.Txn
	step("a Begin and reads", 4, func() error {
		tx = c.Begin(ctx)
		if _, err := tx.Get(b, k); err != nil {
			return err
		}
		_, err := tx.GetAll([]kv.Key{{Bucket: b, Key: k}, {Bucket: b, Key: []byte("x")}})
		return err
	})
	step("an Update meanwhile", 5, func() error {
		return c.Update(ctx, func(tx kv.Tx) error { return tx.Put(b, k, []byte("2")) })
	})
	step("a conflicting Commit", 5, func() error {
		tx.Put(b, k, []byte("3"))
		if err := tx.Commit(ctx); !errors.Is(err, kv.ErrConflict) {
			return errors.Join(errors.New("want ErrConflict"), err)
		}
		return nil
	})
	step("a Begin again and its Commit", 6, func() error {
		tx := c.Begin(ctx)
		if _, err := tx.Get(b, k); err != nil {
			return err
		}
		tx.Put(b, k, []byte("3"))
		return tx.Commit(ctx)
	})
}
