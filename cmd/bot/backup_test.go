package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// testBackupToken is the backup token of the tests.
const testBackupToken = "test-backup-token-0123456789"

// getBackup returns the status and body of a GET of url with the given
// Authorization header (none when empty).
func getBackup(t *testing.T, url, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// openStore opens a store on a temp file, without fsync (these tests
// check who waits for whom, not durability), and closes it at cleanup.
func openStore(t *testing.T) *boltstore.Store {
	t.Helper()
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// fill writes n MiB of filler into the store's database, in a bucket
// of its own.
func fill(t *testing.T, db *bolt.DB, key string, n int) {
	t.Helper()
	blob := make([]byte, 1<<20)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("test-filler"))
		if err != nil {
			return err
		}
		for i := range n {
			if err := b.Put(fmt.Appendf(nil, "%s-%d", key, i), blob); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestBackupNeedsTheBearerToken(t *testing.T) {
	store := openStore(t)
	m := newMetrics(liveCount(store))
	off := httptest.NewServer(opsHandler(m, store, store, backupConfig{}, slog.New(slog.DiscardHandler)))
	defer off.Close()
	if code, _ := getBackup(t, off.URL+"/backup", "Bearer "+testBackupToken); code != http.StatusForbidden {
		t.Errorf("/backup without a configured token: %d, want 403", code)
	}
	var logs watchedBuffer
	on := httptest.NewServer(opsHandler(m, store, store, backupConfig{Token: testBackupToken}, slog.New(slog.NewTextHandler(&logs, nil))))
	defer on.Close()
	for _, auth := range []string{"", "Bearer", "Bearer ", "Bearer wrong-token-0123456789", "Basic " + testBackupToken, "Bearer " + testBackupToken + "x", testBackupToken} {
		if code, body := getBackup(t, on.URL+"/backup", auth); code != http.StatusUnauthorized || len(body) > 100 {
			t.Errorf("/backup with Authorization %q: %d, %d bytes", auth, code, len(body))
		}
	}
	for _, auth := range []string{"Bearer " + testBackupToken, "bearer  " + testBackupToken} {
		if code, body := getBackup(t, on.URL+"/backup", auth); code != http.StatusOK || int64(len(body)) < 4096 {
			t.Errorf("/backup with Authorization %q: %d, %d bytes", auth, code, len(body))
		}
	}
	if strings.Contains(logs.String(), testBackupToken) {
		t.Fatalf("the backup token was logged:\n%s", logs.String())
	}
}

func TestOpsListensOnLoopbackAndSaysWhat(t *testing.T) {
	for _, tt := range []struct {
		addr, backup string
		token        bool
		exposed      bool
	}{
		{":0", "/backup is off", false, false},
		{"127.0.0.1:0", "/metrics, /healthz and /backup", true, false},
		{"0.0.0.0:0", "/backup is off", false, true},
	} {
		var logs watchedBuffer
		ctx, cancel := context.WithCancel(context.Background())
		addrs := make(chan net.Addr, 1)
		done := make(chan error, 1)
		ln, err := listenOps(tt.addr)
		if err != nil {
			t.Fatalf("%s: %v", tt.addr, err)
		}
		go func() {
			done <- serveOps(ctx, ln, http.NotFoundHandler(), tt.token, slog.New(slog.NewTextHandler(&logs, nil)), func(a net.Addr) { addrs <- a })
		}()
		addr := (<-addrs).(*net.TCPAddr)
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", tt.addr, err)
		}
		if addr.IP.IsLoopback() == tt.exposed {
			t.Errorf("%s listened on %v", tt.addr, addr)
		}
		warned := strings.Contains(logs.String(), "level=WARN")
		if !strings.Contains(logs.String(), tt.backup) || !strings.Contains(logs.String(), "addr="+addr.String()) || warned != tt.exposed {
			t.Errorf("%s: log\n%s", tt.addr, logs.String())
		}
	}
}

// TestStalledBackupClientDoesNotHoldUpWrites takes a backup of a
// database larger than the socket buffers with a client that reads the
// header and a few bytes and then stops reading. While it stalls, a
// write that grows the file, a game start and a move all commit, and a
// second backup is refused as busy.
func TestStalledBackupClientDoesNotHoldUpWrites(t *testing.T) {
	store := openStore(t)
	fill(t, store.DB(), "a", 24)
	m := newMetrics(liveCount(store))
	svc := session.New(store, &session.Config{Observer: m, NewSeed: func() uint64 { return 1 }})
	srv := httptest.NewServer(opsHandler(m, store, store, backupConfig{Token: testBackupToken}, slog.New(slog.DiscardHandler)))
	defer srv.Close()
	resp, stalled := stallBackup(t, srv.Listener.Addr().String())
	defer stalled.Close()
	if resp.ContentLength < 24<<20 {
		t.Fatalf("backup of %d bytes", resp.ContentLength)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		// 16 MiB more needs a larger memory map, which a read
		// transaction left open would hold up.
		fill(t, store.DB(), "b", 16)
		ann := session.Actor{Platform: "test", Chat: "c", User: session.User{ID: "1", Name: "ann"}}
		v, err := svc.Begin(ctx, session.Request{Actor: ann}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy, Side: session.First})
		if err == nil {
			_, err = svc.Begin(ctx, session.Request{Actor: ann}).Place(session.PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: 1, Y: 1}})
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("writes are held up by a backup client that stopped reading")
	}
	if code, body := getBackup(t, srv.URL+"/backup", "Bearer "+testBackupToken); code != http.StatusTooManyRequests {
		t.Errorf("a second backup during the first: %d %q", code, body)
	}
	entries, err := os.ReadDir(filepath.Dir(store.DB().Path()))
	if err != nil || len(entries) != 1 {
		t.Errorf("the staged snapshot is left in the database's directory: %v, %v", entries, err)
	}
}

// TestStalledBackupClientIsCutOff checks that a backup client that stops
// reading is cut off once a write waits longer than the write timeout.
func TestStalledBackupClientIsCutOff(t *testing.T) {
	store := openStore(t)
	fill(t, store.DB(), "a", 24)
	cut := make(chan struct{})
	logs := &watchWriter{want: "backup cut off", seen: cut}
	h := opsHandler(newMetrics(liveCount(store)), store, store, backupConfig{Token: testBackupToken, WriteTimeout: time.Millisecond}, slog.New(slog.NewTextHandler(logs, nil)))
	srv := httptest.NewServer(h)
	defer srv.Close()
	// The client asks and reads nothing until the server has cut it off;
	// whenever the cut came (before the headers, on a busy machine, or
	// after some chunks), what it can still read is far from the whole
	// backup.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.(*net.TCPConn).SetReadBuffer(256 << 10); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+srv.Listener.Addr().String()+"/backup", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testBackupToken)
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case <-cut:
	case <-wctx.Done():
		t.Fatal("a backup client that stopped reading was never cut off")
	}
	n, _ := io.Copy(io.Discard, conn)
	if size := int64(24 << 20); n >= size {
		t.Fatalf("the cut-off client still read %d bytes, a whole backup of over %d", n, size)
	}
}

// stallBackup asks for a backup, reads the header and 16 bytes, and then
// stops reading, with far less than the backup held by the socket
// buffers; it returns the response and the connection.
func stallBackup(t *testing.T, addr string) (*http.Response, net.Conn) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	// A fixed receive buffer, so that it cannot grow to hold the whole
	// backup.
	if err := conn.(*net.TCPConn).SetReadBuffer(256 << 10); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/backup", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testBackupToken)
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 4096), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("backup: %s", resp.Status)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 16)); err != nil {
		t.Fatal(err)
	}
	return resp, conn
}

// watchWriter closes seen the first time a write holds want.
type watchWriter struct {
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func FuzzBearerToken(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer  abc", "Bearer", "Basic abc", "Bearer a b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		tok, ok := bearerToken(header)
		if !ok {
			if tok != "" {
				t.Fatalf("%q: refused but gave %q", header, tok)
			}
			return
		}
		if tok == "" || strings.ContainsAny(tok, " \t\r\n") || !strings.HasSuffix(header, tok) {
			t.Fatalf("%q: token %q", header, tok)
		}
		if again, ok := bearerToken("Bearer " + tok); !ok || again != tok {
			t.Fatalf("%q: token %q does not round-trip: %q", header, tok, again)
		}
	})
}

// liveCount returns the active-games count of a service on store, as
// run wires it into the metrics.
func liveCount(store kv.Store) func() (int, error) {
	svc := session.New(store, nil)
	return func() (int, error) { return svc.LiveCount(context.Background()) }
}
