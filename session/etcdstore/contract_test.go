package etcdstore_test

import (
	"strconv"
	"testing"

	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
	"github.com/boardbot/boardbot/session/storetest"
)

// TestContract runs the store contract on an embedded 3-member etcd
// cluster, each case under its own prefix, its two handles two clients
// as two replicas would have.
func TestContract(t *testing.T) {
	c := etcdtest.Start(t, 3)
	n := 0
	storetest.Run(t, func(t *testing.T) (kv.Store, kv.Store) {
		n++
		prefix := "contract" + strconv.Itoa(n) + "/"
		return c.Store(t, prefix), c.Store(t, prefix)
	})
}
