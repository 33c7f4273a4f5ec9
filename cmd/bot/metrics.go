package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// metrics holds the bot's Prometheus metrics. It is the session's
// Observer and gives the platforms their update and API error hooks, so
// that no other package depends on Prometheus.
type metrics struct {
	// active counts the live games (and so asks the store).
	active    func() (int, error)
	reg       *prometheus.Registry
	updates   *prometheus.CounterVec
	moves     *prometheus.CounterVec
	refusals  *prometheus.CounterVec
	think     *prometheus.HistogramVec
	apiErrors *prometheus.CounterVec
	commit    prometheus.Histogram

	// unreadable counts the stored records the session skipped.
	unreadable *prometheus.CounterVec
}

// newMetrics returns the metrics, registered with a registry of their
// own together with the Go and process collectors; active reports the
// number of live games for boardbot_active_games.
func newMetrics(active func() (int, error)) *metrics {
	m := &metrics{
		active: active,
		reg:    prometheus.NewRegistry(),
		updates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardbot_updates_total", Help: "Updates received, by platform and kind.",
		}, []string{"platform", "kind"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardbot_moves_total", Help: "Stones placed and committed, by platform and by whom (human or ai).",
		}, []string{"platform", "by"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardbot_refusals_total", Help: "Actions refused, by platform and reason.",
		}, []string{"platform", "reason"}),
		think: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "boardbot_ai_think_seconds", Help: "Time the AI took for a move, by level and board (WxH).",
			Buckets: []float64{.001, .005, .02, .05, .1, .25, .5, 1, 2, 5, 10},
		}, []string{"level", "board"}),
		apiErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardbot_platform_api_errors_total", Help: "Failed platform API calls, by platform and code (HTTP status; 0 for no answer).",
		}, []string{"platform", "code"}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "boardbot_store_commit_seconds", Help: "Time to commit a game change to the store, group-commit wait included.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}),
		unreadable: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardbot_unreadable_records_total",
			Help: "Times a stored record this release cannot read (damaged, or from a newer release) was skipped, by kind (game, stats); the sweeper skips a due one on every pass.",
		}, []string{"kind"}),
	}
	activeGames := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "boardbot_active_games", Help: "Open challenges and running games in the store.",
	}, func() float64 {
		n, err := active()
		if err != nil {
			return -1
		}
		return float64(n)
	})
	m.reg.MustRegister(m.updates, m.moves, m.refusals, m.think, m.apiErrors, m.commit, activeGames,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.reg.MustRegister(m.unreadable)
	return m
}

// Moved counts a stone.
func (m *metrics) Moved(p session.Platform, ai bool) {
	by := "human"
	if ai {
		by = "ai"
	}
	m.moves.WithLabelValues(string(p), by).Inc()
}

// Refused counts a refusal.
func (m *metrics) Refused(p session.Platform, reason string) {
	m.refusals.WithLabelValues(string(p), reason).Inc()
}

// Thought records an AI think time.
func (m *metrics) Thought(l engine.Level, r engine.Rules, d time.Duration) {
	m.think.WithLabelValues(l.String(), fmt.Sprintf("%dx%d", r.Width, r.Height)).Observe(d.Seconds())
}

// Committed records a commit latency.
func (m *metrics) Committed(d time.Duration) { m.commit.Observe(d.Seconds()) }

// onUpdate returns the update hook of a platform.
func (m *metrics) onUpdate(p session.Platform) func(kind string) {
	return func(kind string) { m.updates.WithLabelValues(string(p), kind).Inc() }
}

// onAPIError returns the API error hook of a platform.
func (m *metrics) onAPIError(p session.Platform) func(code int) {
	return func(code int) { m.apiErrors.WithLabelValues(string(p), strconv.Itoa(code)).Inc() }
}

// maxUnreadableLogged is how many unreadable records the log names;
// beyond that they are only counted.
const maxUnreadableLogged = 1000

// onUnreadable returns the session's hook for stored records it skipped
// as unreadable. Every skip counts in boardbot_unreadable_records_total;
// the first skip of each record logs a warning with its kind and id
// (never its contents), so that a record the sweeper meets on every pass
// is named once.
func (m *metrics) onUnreadable(log *slog.Logger) func(kind, id string) {
	var mu sync.Mutex
	logged := map[string]bool{}
	return func(kind, id string) {
		m.unreadable.WithLabelValues(kind).Inc()
		key := kind + "\x00" + id
		mu.Lock()
		first, full := !logged[key] && len(logged) < maxUnreadableLogged, false
		if first {
			logged[key] = true
			full = len(logged) == maxUnreadableLogged
		}
		mu.Unlock()
		if first {
			log.Warn("skipping a stored record this release cannot read (damaged, or written by a newer release); it blocks nothing else",
				"kind", kind, "id", id)
		}
		if full {
			log.Warn("more unreadable records are only counted, not named", "metric", "boardbot_unreadable_records_total", "named", maxUnreadableLogged)
		}
	}
}

// opsHandler serves /metrics, /healthz (200 while the store answers a
// read) and, with a bbolt store, /backup (see backupHandler; off without
// backup.Token). With etcd there is no /backup: etcd has its own
// snapshots.
func opsHandler(m *metrics, store kv.Store, file *boltstore.Store, backup backupConfig, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := store.View(r.Context(), func(kv.Tx) error { return nil }); err != nil {
			http.Error(w, "database: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	if file != nil {
		mux.Handle("GET /backup", newBackupHandler(file, backup, log))
	}
	return mux
}

// listenOps binds addr for the ops endpoints. An address without a host
// (":9090") listens on loopback only; "0.0.0.0:9090" must be written to
// listen on every interface.
func listenOps(addr string) (net.Listener, error) {
	return net.Listen("tcp", opsAddr(addr))
}

// serveOps serves h, opsHandler or what stands for it while starting, on
// ln (see listenOps) until ctx is done, then shuts the server down. It
// logs which endpoints are served where (backup tells whether /backup is
// on) and warns when they can be reached from beyond this machine. It
// returns when the server has stopped; ready, when not nil, receives the
// address listened on.
func serveOps(ctx context.Context, ln net.Listener, h http.Handler, backup bool, log *slog.Logger, ready func(net.Addr)) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	if backup {
		log.Info("serving /metrics, /healthz and /backup (bearer token)", "addr", ln.Addr().String())
	} else {
		log.Info("serving /metrics and /healthz; /backup is off (no metrics.backup_token)", "addr", ln.Addr().String())
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		log.Warn("the ops endpoints can be reached from beyond this machine; keep the address private or behind a firewall", "addr", ln.Addr().String())
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("metrics: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("metrics: shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}

// opsAddr returns addr with an empty host made loopback, so that ":9090"
// is not reachable from other machines.
func opsAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "" {
		return addr
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// handler returns the /metrics handler of m.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
