// Package engine holds the rules of K-in-a-row games on W×H boards and the
// AI players that play them.
//
// It is pure Go with no I/O: it knows nothing of chats, users, storage or
// time zones. A Board is a mutable value owned by one goroutine; Play and
// Undo change it explicitly and Clone copies it. AI players never modify
// the board they are given. Every random choice an AI makes is drawn from a
// *rand.Rand its caller injects, so a game can be replayed from its seed
// (for hard, together with a node budget: see Options.MaxNodes).
//
// The levels: easy plays like a beginner; medium scans every cell near the
// stones once for attack and defence; hard solves boards of up to 16 cells
// outright (solve.go) and otherwise searches (search.go): a fast position
// with incremental line patterns (position.go, patterns.go), threat levels
// and evaluation (eval.go), candidate moves ordered by threat (movegen.go),
// iterative-deepening principal-variation search with a transposition table
// (tt.go), killer and history ordering, late-move reductions, reverse
// futility pruning and singular extensions, VCF at the leaves (and at
// inner nodes on small boards) and VCF and VCT at the root (vcf.go), a
// narrow, deep VCT that finds its own wins and
// leaves out root moves that lose to the opponent's (vctn.go), within a
// time or node budget (timeman.go). The three levels are named points on
// a ladder of Rungs strengths measured in Elo (ladder.go): rungs between
// them blend the levels' moves or bound hard's search by nodes.
//
// Concurrency: a Player is not safe for concurrent use, but separate
// players may run in separate goroutines. The only state shared between
// them is the read-only pattern tables (built once under a lock) and a
// pool of transposition tables (sync.Pool), each used by one search at a
// time. Making a player is cheap: hard takes its table from the pool when
// it moves and returns it afterwards, with what the search stored, so that
// the next time-bound search (most often the same game's next move) starts
// from it.
package engine
