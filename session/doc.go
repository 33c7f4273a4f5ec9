// Package session is the one place that changes game state: it starts
// games against the AI and duel challenges (accepted, declined, cancelled
// or lapsing), places stones, asks the engine for the AI's replies, ends
// games by result, resignation or time, starts rematches, and keeps games,
// per-platform stats and Elo ratings, leaderboards, the game each user has
// on screen, and chat and user settings. A game's result is counted in
// the same transaction that ends it.
//
// # One request, one transaction
//
// A front's request is a Turn (Service.Begin): what the turn reads and the
// change it makes commit as one optimistic transaction of the store (see
// package session/kv). The turn reads what the request needs in one
// request to the store, decides, lets the AI think with nothing held in
// the store, and commits with a compare on everything it read; when
// something read changed meanwhile it reads again and decides again,
// without searching again for a position it has searched. With the
// change commit the mark of the platform update it handles (so that an
// update delivered twice takes effect once), the game the user now has
// on screen, and the message a game was bound to. Every change is
// committed before it is returned, so a View handed out describes a state
// that survives a crash. Views are immutable: their getters return copies.
//
// # Layers
//
// The store is plugged in at package session/kv: an ordered key-value
// store with transactions and a change feed, implemented by
// session/boltstore (one bbolt file, group commit; the default) and
// session/etcdstore (an etcd cluster shared by replicas), and checked by
// the contract suite session/storetest. The game layout on it (buckets,
// keys, indexes, records) is this package's own and nobody else's.
//
// # Hooks
//
// The session calls back into its caller only through these hooks, each
// set explicitly and documented where it is declared:
//
//   - Config.OnExpire hears of every game Sweep ends, so that the fronts
//     update its message.
//   - Config.OnUnreadable hears of every stored record a read skips.
//   - Config.Observer hears of moves, refusals (by Reason), AI think
//     times and commit latency, for metrics.
//   - Request.Think runs each wait of a request for an expensive AI
//     search (hard on boards larger than 4×4: Expensive), so that the
//     front shows that the answer takes a while and frees its worker.
//
// Nothing is taken from a context but its deadline and cancellation.
//
// # Time, limits and the AI pool
//
// Time comes from Config.Now. Games past their deadline end when next
// touched, or when Sweep finds them; RunSweeper calls Sweep on the ticks
// of a ticker the caller owns. Expensive AI searches run in a bounded pool
// of workers with a bounded queue: when the queue is full a move is
// refused with ErrBusy and nothing changes, while easy, medium and small
// boards never wait for the pool. Config.Limits caps live games per user
// and per chat and the rate of challenges.
//
// A Service is safe for concurrent use; a Turn is for one goroutine.
// Changes to one game are serialised in a process by a per-game lock, and
// across processes by the compare at commit.
//
// The package knows nothing of chat platforms or emoji: chats, users and
// messages are opaque strings chosen by the fronts.
package session
