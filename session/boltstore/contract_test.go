package boltstore_test

import (
	"path/filepath"
	"testing"

	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
	"github.com/boardbot/boardbot/session/storetest"
)

// TestContract runs the store contract on a bbolt file, the same handle
// twice as one process owns it.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (kv.Store, kv.Store) {
		db, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db, db
	})
}
