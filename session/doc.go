// Package session is the one place that changes game state: it starts
// games, places stones, asks the engine for the AI's replies, ends games,
// and keeps them in a Store.
//
// A Service is safe for concurrent use. Calls on one game are serialised by
// a per-game lock; calls on different games run in parallel. Every change
// is committed in a single store transaction before it is returned, so a
// View handed out describes a state that survives a crash. Views are
// immutable: their getters return copies.
//
// The package knows nothing of chat platforms or emoji: chats, users and
// messages are opaque strings chosen by the adapters.
package session
