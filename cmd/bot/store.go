package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"go.etcd.io/etcd/client/pkg/v3/transport"

	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/etcdstore"
	"github.com/boardbot/boardbot/session/kv"
)

// openedStore is the configured store: the kv.Store the session plays on
// and, by backend, the bbolt store for backups or the etcd store for
// elections and locks.
type openedStore struct {
	kv.Store
	// bolt is the bbolt store; nil for etcd.
	bolt *boltstore.Store
	// etcd is the etcd store; nil for bbolt.
	etcd *etcdstore.Store
}

// openConfigured opens the store the configuration names.
func openConfigured(cfg *Config) (*openedStore, error) {
	if cfg.Database.Backend == "etcd" {
		return openEtcd(cfg.Database.Etcd)
	}
	db, err := boltstore.Open(cfg.Database.Path, nil)
	if errors.Is(err, boltstore.ErrLocked) {
		return nil, fmt.Errorf("%s is in use by another running bot; stop it or use -db for another file", cfg.Database.Path)
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		// The file system's error names the file: say it once.
		return nil, fmt.Errorf("%s: %w", keyName("database.path"), pathErr)
	}
	if err != nil {
		return nil, err
	}
	return &openedStore{Store: db, bolt: db}, nil
}

// openEtcd connects to the etcd cluster of the configuration.
func openEtcd(c EtcdConfig) (*openedStore, error) {
	opts := etcdstore.Options{
		Endpoints: c.Endpoints, Prefix: c.Prefix,
		Username: c.Username, Password: string(c.Password),
		DialTimeout: c.DialTimeout, RequestTimeout: c.RequestTimeout,
	}
	if c.CAFile != "" || c.CertFile != "" {
		info := transport.TLSInfo{TrustedCAFile: c.CAFile, CertFile: c.CertFile, KeyFile: c.KeyFile}
		tlsCfg, err := info.ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("database.etcd TLS files: %w", err)
		}
		opts.TLS = tlsCfg
	}
	es, err := etcdstore.Open(opts)
	if err != nil {
		return nil, err
	}
	return &openedStore{Store: es, etcd: es}, nil
}

// replicaID names this process among the replicas: host and pid.
func replicaID() string {
	host, _ := os.Hostname()
	return host + "/" + strconv.Itoa(os.Getpid())
}

// background runs fn until ctx is done: at once with bbolt (one process
// owns the file), and with etcd only while this replica leads the
// election name, so that one replica at a time runs it.
func (s *openedStore) background(ctx context.Context, name string, fn func(ctx context.Context)) {
	if s.etcd == nil {
		fn(ctx)
		return
	}
	s.etcd.Lead(ctx, name, replicaID(), 0, fn)
}

// errSecondPoller is returned when another replica polls Telegram with
// the same token.
var errSecondPoller = errors.New("another replica already polls Telegram with this token, and Telegram allows one poller per token: run replicas with telegram.mode: webhook behind a load balancer, or run one")

// holdPoller takes the lock of the Telegram poller of token, with etcd;
// with bbolt the file's own lock keeps to one process. release gives it
// back; lost is closed if the lock is lost.
func (s *openedStore) holdPoller(ctx context.Context, token string) (release func(), lost <-chan struct{}, err error) {
	if s.etcd == nil {
		return func() {}, nil, nil
	}
	sum := sha256.Sum256([]byte(token)) // the lock's name must not show the token
	release, lost, err = s.etcd.Hold(ctx, "telegram-poller-"+hex.EncodeToString(sum[:8]))
	if errors.Is(err, etcdstore.ErrHeld) {
		return nil, nil, errSecondPoller
	}
	return release, lost, err
}
