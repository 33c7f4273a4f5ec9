// Package engine holds the rules of K-in-a-row games on W×H boards and the
// AI players that play them.
//
// It is pure Go with no I/O: it knows nothing of chats, users, storage or
// time zones. A Board is a mutable value owned by one goroutine; Play and
// Undo change it explicitly and Clone copies it. AI players never modify
// the board they are given. Every random choice an AI makes is drawn from a
// *rand.Rand its caller injects, so a game can be replayed from its seed.
package engine
