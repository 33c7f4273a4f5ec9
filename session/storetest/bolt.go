package storetest

import (
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	bolt "go.etcd.io/bbolt"
)

// Bolt is a bbolt file opened as a session.Store, for tests that also look
// at the file itself.
type Bolt struct {
	*session.KVStore
	// File is the kv store on the bbolt file.
	File *boltstore.Store
}

// DB returns the bbolt database of the file.
func (b *Bolt) DB() *bolt.DB { return b.File.DB() }

// OpenBolt opens the bbolt file at path as a session.Store.
func OpenBolt(path string, opts *boltstore.Options) (*Bolt, error) {
	db, err := boltstore.Open(path, opts)
	if err != nil {
		return nil, err
	}
	st, err := session.NewStore(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Bolt{KVStore: st, File: db}, nil
}
