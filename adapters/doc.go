// Package adapters holds what every chat platform shares: the command
// grammar (/play, /duel, /accept, /rematch, /stats, ...), the callback-data codec that lets a
// button carry its action, and the Dispatcher that turns commands, taps and
// typed coordinates into session calls.
//
// Platform adapters (telegram, discord, console) translate their updates
// into Dispatcher calls and the returned Reply into their own messages
// (render.Compose), and ask it their game questions: the language to
// answer in (Lang), whether an answer may wait for the AI (SlowTap,
// SlowText).
// They keep no game state: what a tap needs is in its callback data and the
// stored game. A Dispatcher is safe for concurrent use.
package adapters
