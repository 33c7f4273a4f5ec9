// Package adapters holds what every chat platform shares: the command
// grammar (/play, /duel, /accept, /rematch, /stats, ...), the
// callback-data codec that lets a button carry its action, the
// Dispatcher that decides what a request comes to, and Carry, which
// carries a decision out through a platform's Front.
//
// The path of a request: a front (adapters/telegram, adapters/discord,
// adapters/console) turns a platform update into a Request and hands it,
// with its callback data or typed text, to the Dispatcher (Tap, Text,
// and the entries for a front's own buttons). The Dispatcher decodes the
// data once and decides on one session.Turn: one read of the store, the
// change (the AI thinking with nothing held in the store), one commit.
// What it decided is a Decision: a list of effects (Notice, Say, Show,
// Attach). The front passes it to Carry, which issues the effects through
// the front's four methods (Notify, Send, Edit, Attach) in one fixed
// order, and returns the new messages to bind to their games. No front
// reads a decision, and none holds game state: what a tap needs is in its
// callback data and the stored game.
//
// The files: dispatcher.go (requests, decisions and their effects,
// fronts and Carry, refusals), taps.go (the callback-data codec and what a
// tap does), typed.go (commands and typed moves), records.go (history,
// replays, records, stats, charts, leaderboards) and command.go (the
// grammar). docs/architecture.md follows one tap through them.
//
// A Dispatcher is safe for concurrent use; Carry is as safe as the fronts
// it is given.
package adapters
