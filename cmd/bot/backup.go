package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boardbot/boardbot/session/boltstore"
)

// defaultBackupWriteTimeout is how long a /backup client may take to
// read one chunk before it is cut off.
const defaultBackupWriteTimeout = 30 * time.Second

// backupChunk is the size of the writes of a backup to its client; each
// gets its own write deadline.
const backupChunk = 64 << 10

// backupConfig configures /backup. The zero value serves no backup.
type backupConfig struct {
	// Token is the bearer token a request must carry; empty turns
	// /backup off (403).
	Token Secret
	// WriteTimeout bounds each chunk's write to the client; a client
	// that reads slower is cut off. Default defaultBackupWriteTimeout.
	WriteTimeout time.Duration
	// Dir is where the snapshot is staged (unlinked) before it is sent.
	// Default the database's directory.
	Dir string
}

// backupHandler serves /backup: a consistent snapshot of the database,
// copied in one read transaction to an unlinked file beside it and then
// streamed from there, so that the transaction (which holds up the
// file's growth, and so every write) lasts as long as a local copy
// rather than as long as the client takes. One backup runs at a time.
// It is safe for concurrent use.
type backupHandler struct {
	db   *boltstore.Store
	log  *slog.Logger
	cfg  backupConfig
	want [sha256.Size]byte
	// busy holds a value while a backup is being served.
	busy chan struct{}
}

// newBackupHandler returns the /backup handler of db.
func newBackupHandler(db *boltstore.Store, cfg backupConfig, log *slog.Logger) *backupHandler {
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = defaultBackupWriteTimeout
	}
	if cfg.Dir == "" {
		cfg.Dir = filepath.Dir(db.Path())
	}
	return &backupHandler{db: db, log: log, cfg: cfg, want: sha256.Sum256([]byte(cfg.Token)), busy: make(chan struct{}, 1)}
}

// ServeHTTP answers 403 when no token is configured, 401 without the
// right bearer token, 429 while another backup runs, and otherwise the
// snapshot.
func (b *backupHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if b.cfg.Token == "" {
		http.Error(w, "backup is off: set metrics.backup_token to turn it on", http.StatusForbidden)
		return
	}
	if !b.authorized(r.Header.Get("Authorization")) {
		b.log.Warn("backup refused: missing or wrong bearer token", "remote", r.RemoteAddr)
		w.Header().Set("WWW-Authenticate", `Bearer realm="backup"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	select {
	case b.busy <- struct{}{}:
		defer func() { <-b.busy }()
	default:
		w.Header().Set("Retry-After", "60")
		http.Error(w, "a backup is already being served; try again when it is done", http.StatusTooManyRequests)
		return
	}
	f, size, err := b.snapshot()
	if err != nil {
		b.log.Error("backup failed", "err", err)
		http.Error(w, "backup failed", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", `attachment; filename="bot.db"`)
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	if err := b.send(w, f, size); err != nil {
		// The header is out already; the short body tells the client.
		b.log.Warn("backup cut off", "remote", r.RemoteAddr, "err", err)
		return
	}
	b.log.Info("backup served", "remote", r.RemoteAddr, "bytes", size)
}

// authorized reports whether header is "Bearer <the token>", comparing
// in constant time.
func (b *backupHandler) authorized(header string) bool {
	tok, ok := bearerToken(header)
	got := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(got[:], b.want[:]) == 1 && ok
}

// bearerToken returns the token of an Authorization header value of the
// form "Bearer <token>" (the scheme in any case), and whether it is one.
func bearerToken(header string) (string, bool) {
	scheme, tok, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimLeft(tok, " ")
	if tok == "" || strings.ContainsAny(tok, " \t\r\n") {
		return "", false
	}
	return tok, true
}

// snapshot copies the database in one read transaction to an unlinked
// file in the staging directory and returns it, read from its start,
// with its size.
func (b *backupHandler) snapshot() (io.ReadCloser, int64, error) {
	f, err := os.CreateTemp(b.cfg.Dir, ".backup-*.db")
	if err != nil {
		return nil, 0, fmt.Errorf("backup: stage the snapshot: %w", err)
	}
	// Unlinked at once, nothing is left behind whatever happens next;
	// where an open file cannot be removed, it goes when closed.
	name := f.Name()
	if os.Remove(name) == nil {
		name = ""
	}
	staged := stagedFile{File: f, name: name}
	fail := func(err error) (io.ReadCloser, int64, error) {
		staged.Close()
		return nil, 0, err
	}
	size, err := b.db.Backup(f)
	if err != nil {
		return fail(fmt.Errorf("backup: copy the database: %w", err))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(fmt.Errorf("backup: %w", err))
	}
	return staged, size, nil
}

// stagedFile is a snapshot's staging file; Close removes it when it
// could not be unlinked while open.
type stagedFile struct {
	*os.File
	name string
}

// Close closes the file and removes it if it is still linked.
func (s stagedFile) Close() error {
	err := s.File.Close()
	if s.name != "" {
		os.Remove(s.name)
	}
	return err
}

// send writes size bytes of f to w, each chunk under its own write
// deadline, so that a client that stops reading is cut off.
func (b *backupHandler) send(w http.ResponseWriter, f io.Reader, size int64) error {
	rc := http.NewResponseController(w)
	buf := make([]byte, backupChunk)
	var sent int64
	for {
		n, rerr := f.Read(buf)
		if n > 0 {
			if err := rc.SetWriteDeadline(time.Now().Add(b.cfg.WriteTimeout)); err != nil {
				return fmt.Errorf("backup: write deadline: %w", err)
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return fmt.Errorf("backup: after %d of %d bytes: %w", sent, size, err)
			}
			sent += int64(n)
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return fmt.Errorf("backup: read the snapshot: %w", rerr)
		}
	}
	if sent != size {
		return fmt.Errorf("backup: the snapshot has %d bytes, not %d", sent, size)
	}
	if err := rc.Flush(); err != nil {
		return fmt.Errorf("backup: after %d bytes: %w", sent, err)
	}
	// The connection may serve another request.
	return rc.SetWriteDeadline(time.Time{})
}
