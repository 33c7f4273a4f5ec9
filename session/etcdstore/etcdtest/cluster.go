// Package etcdtest starts real etcd clusters inside a test process: its
// members listen on loopback ports and keep their data in the test's
// temporary directory, and the test can stop any of them mid-run.
package etcdtest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/boardbot/boardbot/session/etcdstore"
)

// Cluster is an etcd cluster of embedded members.
type Cluster struct {
	t       testing.TB
	mu      sync.Mutex
	members []*embed.Etcd
	cfgs    []*embed.Config // to restart a member
	clients []string
	// tlsFiles are the client's files of a cluster with TLS; password
	// the root user's of a cluster with authentication.
	tlsFiles TLSFiles
	password string
}

// Start starts a cluster of n members and waits until it has a leader;
// the cluster stops when the test ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	return startWith(t, n, Security{})
}

// startWith starts a cluster of n members with TLS when sec says so;
// authentication is for StartSecure to turn on.
func startWith(t testing.TB, n int, sec Security) *Cluster {
	t.Helper()
	// A port found free can be taken before etcd binds it (by another
	// test process): start again on other ports.
	for attempt := 1; ; attempt++ {
		c, err := start(t, n, sec.TLS)
		if err == nil {
			return c
		}
		if attempt == startAttempts || !inUse(err) {
			t.Fatal(err)
		}
		t.Logf("etcdtest: %v; starting again on other ports", err)
	}
}

// inUse reports whether err is a failure to bind a port someone else
// holds.
func inUse(err error) bool {
	return errors.Is(err, syscall.EADDRINUSE) || strings.Contains(err.Error(), "address already in use")
}

// startAttempts is how many times Start tries to start a cluster.
const startAttempts = 5

// start starts a cluster of n members and waits for its leader; it
// returns an error only when a member could not start.
func start(t testing.TB, n int, withTLS bool) (*Cluster, error) {
	c := &Cluster{t: t}
	dir := t.TempDir()
	scheme := "http://"
	var serverTLS transport.TLSInfo
	if withTLS {
		scheme = "https://"
		serverTLS, c.tlsFiles = writeCerts(t, dir)
	}
	peers := make([]string, n)
	var initial []string
	for i := range n {
		peers[i] = "http://" + freeAddr(t)
		c.clients = append(c.clients, scheme+freeAddr(t))
		initial = append(initial, fmt.Sprintf("m%d=%s", i, peers[i]))
	}
	cfgs := make([]*embed.Config, n)
	for i := range n {
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = fmt.Sprintf("%s/m%d", dir, i)
		pu, _ := url.Parse(peers[i])
		cu, _ := url.Parse(c.clients[i])
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*pu}, []url.URL{*pu}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*cu}, []url.URL{*cu}
		cfg.InitialCluster = strings.Join(initial, ",")
		cfg.InitialClusterToken = "boardbot-test"
		cfg.TickMs, cfg.ElectionMs = 50, 1000
		cfg.UnsafeNoFsync = true
		cfg.ClientTLSInfo = serverTLS
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		cfgs[i] = cfg
	}
	c.cfgs = cfgs
	// Members wait for each other: start them together.
	c.members = make([]*embed.Etcd, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.members[i], errs[i] = embed.StartEtcd(cfgs[i])
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			c.close()
			return nil, fmt.Errorf("etcdtest: start member %d: %w", i, err)
		}
	}
	t.Cleanup(c.close)
	for i, m := range c.members {
		select {
		case <-m.Server.ReadyNotify():
		case <-time.After(30 * time.Second):
			t.Fatalf("etcdtest: member %d not ready", i)
		}
	}
	c.WaitLeader()
	return c, nil
}

// Ports are taken below the kernel's range of ephemeral ports (32768 and
// up on Linux), where outgoing connections of other tests take theirs,
// each process from its own place in [portBase, portBase+portSpan).
const (
	portBase = 20000
	portSpan = 12000
)

var (
	portMu   sync.Mutex
	nextPort = os.Getpid() * 7919 % portSpan
)

// freeAddr returns a loopback address no one listens on now.
func freeAddr(t testing.TB) string {
	portMu.Lock()
	defer portMu.Unlock()
	for range portSpan {
		port := portBase + nextPort
		nextPort = (nextPort + 1) % portSpan
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		addr := l.Addr().String()
		l.Close()
		return addr
	}
	t.Fatal("etcdtest: no free loopback port")
	return ""
}

func (c *Cluster) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, m := range c.members {
		if m != nil {
			m.Close()
			c.members[i] = nil
		}
	}
}

// Endpoints returns the client URLs of every member, stopped ones too.
func (c *Cluster) Endpoints() []string { return append([]string(nil), c.clients...) }

// Leader returns the index of the member that leads, or -1.
func (c *Cluster) Leader() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, m := range c.members {
		if m != nil && m.Server.Leader() == m.Server.MemberID() {
			return i
		}
	}
	return -1
}

// WaitLeader waits until the running members agree on a leader and
// returns its index.
func (c *Cluster) WaitLeader() int {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if i := c.Leader(); i >= 0 {
			return i
		}
		c.mu.Lock()
		var m *embed.Etcd
		for _, x := range c.members {
			if x != nil {
				m = x
			}
		}
		c.mu.Unlock()
		if m == nil {
			break
		}
		// The leader changes on a raft event; wait for the member to
		// hear from one, a tick at most.
		select {
		case <-m.Server.LeaderChangedNotify():
		case <-time.After(50 * time.Millisecond):
		}
	}
	c.t.Fatalf("etcdtest: no leader")
	return -1
}

// Stop stops member i, as a crash of its machine would.
func (c *Cluster) Stop(i int) {
	c.mu.Lock()
	m := c.members[i]
	c.members[i] = nil
	c.mu.Unlock()
	if m != nil {
		m.Server.HardStop()
		m.Close()
	}
}

// Restart starts member i again after Stop, on its data and addresses,
// and waits until it is ready.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	c.mu.Lock()
	running := c.members[i] != nil
	c.mu.Unlock()
	if running {
		return
	}
	m, err := embed.StartEtcd(c.cfgs[i])
	if err != nil {
		c.t.Fatalf("etcdtest: restart member %d: %v", i, err)
	}
	select {
	case <-m.Server.ReadyNotify():
	case <-time.After(30 * time.Second):
		m.Close()
		c.t.Fatalf("etcdtest: member %d not ready after its restart", i)
	}
	c.mu.Lock()
	c.members[i] = m
	c.mu.Unlock()
}

// Client returns a client of every member, closed when the test ends.
func (c *Cluster) Client(t testing.TB, opts ...grpc.DialOption) *clientv3.Client {
	t.Helper()
	cfg := clientv3.Config{
		Endpoints: c.Endpoints(), DialTimeout: 5 * time.Second, Logger: zap.NewNop(),
		DialOptions: opts, TLS: c.clientTLS(t),
	}
	if c.password != "" {
		cfg.Username, cfg.Password = "root", c.password
	}
	cli, err := clientv3.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

// Store returns an etcd store on a new client of the cluster, with the
// prefix, closed when the test ends.
func (c *Cluster) Store(t testing.TB, prefix string, opts ...grpc.DialOption) *etcdstore.Store {
	t.Helper()
	st, err := etcdstore.Open(etcdstore.Options{Client: c.Client(t, opts...), Prefix: prefix, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return st
}
