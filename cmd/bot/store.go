package main

import (
	"errors"
	"fmt"

	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	bolt "go.etcd.io/bbolt"
)

// openedStore is the configured store: the game logic's Store and, in
// bbolt mode, the file for backups.
type openedStore struct {
	*session.KVStore
	// file is the bbolt database; nil for another backend.
	file *bolt.DB
}

// openConfigured opens the store the configuration names.
func openConfigured(cfg *Config) (*openedStore, error) {
	db, err := boltstore.Open(cfg.Database.Path, nil)
	if errors.Is(err, boltstore.ErrLocked) {
		return nil, fmt.Errorf("%s is in use by another running bot; stop it or use -db for another file", cfg.Database.Path)
	}
	if err != nil {
		return nil, err
	}
	st, err := session.NewStore(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &openedStore{KVStore: st, file: db.DB()}, nil
}
