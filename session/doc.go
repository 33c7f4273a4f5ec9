// Package session is the one place that changes game state: it starts
// games against the AI and duel challenges (accepted, declined, cancelled
// or lapsing), places stones, asks the engine for the AI's replies, ends
// games by result, resignation or time, starts rematches, and keeps games,
// per-platform stats and Elo ratings, leaderboards and chat and user
// settings in a Store. A game's result is counted in the same transaction
// that ends it.
//
// Time comes from Config.Now. Games past their deadline end when next
// touched, or when Sweep finds them; RunSweeper calls Sweep on the ticks of
// a ticker the caller owns, and Config.OnExpire hears of every game Sweep
// ends.
//
// A Service is safe for concurrent use. Calls on one game are serialised by
// a per-game lock; calls on different games run in parallel. Every change
// is committed in a single store transaction before it is returned, so a
// View handed out describes a state that survives a crash. Views are
// immutable: their getters return copies.
//
// Storage is pluggable: a Store is the game layout (games, indexes, stats,
// settings, update marks) on any kv.Store (package session/kv), and each
// storage engine is its own package: session/boltstore (one bbolt file,
// group commit; the default) and session/etcdstore (an etcd cluster
// shared by replicas). session/storetest is the contract suite every
// engine passes.
//
// Expensive AI searches (hard on boards larger than 4×4) run in a bounded
// pool of workers with a bounded queue: when the queue is full a move is
// refused with ErrBusy and nothing changes, while easy, medium and small
// boards never wait for the pool. A caller that handles requests on a
// fixed set of workers attaches a lender with WithLender, through which an
// admitted move waits and searches, so that it can free the worker
// meanwhile. Config.Limits caps live games per user and per chat and the
// rate of challenges; Config.Observer hears of moves, refusals (by
// Reason), AI think times and commit latency, for metrics.
//
// The package knows nothing of chat platforms or emoji: chats, users and
// messages are opaque strings chosen by the adapters.
package session
