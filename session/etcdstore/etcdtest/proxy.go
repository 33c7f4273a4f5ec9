package etcdtest

import (
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Proxy is a TCP proxy to a member, for tests of a cluster that answers
// late, or not at all.
type Proxy struct {
	// URL is the client URL to use instead of the member's.
	URL    string
	refuse atomic.Bool
}

// Refuse makes the proxy close every new connection at once (on), as a
// cluster that is not up yet, or pass them again (off).
func (p *Proxy) Refuse(on bool) { p.refuse.Store(on) }

// Proxy starts a proxy to member i until the test ends. With delay, every
// chunk the member sends is held back for delay() (called for each), as a
// loaded or distant cluster answers; requests pass at once, and the order
// of the bytes is kept.
func (c *Cluster) Proxy(t testing.TB, i int, delay func() time.Duration) *Proxy {
	t.Helper()
	scheme, target, _ := strings.Cut(c.clients[i], "://")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{URL: scheme + "://" + ln.Addr().String()}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			if p.refuse.Load() {
				conn.Close()
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				forward(conn, target, delay)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return p
}

// forward joins conn to a connection to target, delaying what target
// sends when delay is set, until either side closes.
func forward(conn net.Conn, target string, delay func() time.Duration) {
	defer conn.Close()
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() {
		io.Copy(up, conn)
		done <- struct{}{}
	}()
	go func() {
		if delay == nil {
			io.Copy(conn, up)
		} else {
			delayedCopy(conn, up, delay)
		}
		done <- struct{}{}
	}()
	<-done
}

// delayedCopy copies src to dst, each chunk read at time t written at
// t+delay(), in order.
func delayedCopy(dst io.Writer, src io.Reader, delay func() time.Duration) {
	type chunk struct {
		data []byte
		at   time.Time
	}
	chunks := make(chan chunk, 1024)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{buf[:n], time.Now().Add(delay())}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		// Latency, not synchronisation: the chunk is due at c.at.
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.data); err != nil {
			for range chunks {
			}
			return
		}
	}
}
