package etcdtest

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// SlowEndpoint returns the client URL of a proxy to member i that holds
// every reply back for delay() (called for each chunk the member sends),
// as a loaded or distant cluster answers; requests pass at once, and the
// order of the bytes is kept. The proxy stops when the test ends.
func (c *Cluster) SlowEndpoint(t testing.TB, i int, delay func() time.Duration) string {
	t.Helper()
	scheme, target, _ := strings.Cut(c.clients[i], "://")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				slowProxy(conn, target, delay)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return scheme + "://" + ln.Addr().String()
}

// slowProxy joins conn to a connection to target, delaying what target
// sends, until either side closes.
func slowProxy(conn net.Conn, target string, delay func() time.Duration) {
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
		delayedCopy(conn, up, delay)
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
