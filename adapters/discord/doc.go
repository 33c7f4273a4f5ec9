// Package discord plays the bot's games on Discord through discordgo:
// slash commands (/play, /move, /resign, /undo, /stats, /top, /lang,
// /chatlang, /help) registered by bulk overwrite at start, and boards as
// messages whose buttons are the cells.
//
// Every interaction is answered within Discord's three seconds: a tap on
// a board is answered by updating that message in place, a refusal by an
// ephemeral reply only the tapper sees, and when the AI may think longer
// (adapters.Dispatcher.SlowTap and SlowText: hard on boards larger than
// 4×4, the AI pool's rule; or any action still running after
// Config.DeferAfter) the interaction is deferred first and the message
// edited once the move is committed.
//
// Messages are render.Compose in render.DiscordLayout: a game's board or
// a duel challenge (/play with an opponent, addressed to that member's
// id) with its Accept, Decline and Cancel buttons. A message holds at
// most 5 rows of 5 buttons, so boards up to 4×4 are shown whole with a
// control row; larger boards show a window of cells with arrows, take
// typed moves with /move, and carry render.Picture as a PNG attachment
// that every update of the message replaces. Bot.Expired edits the
// message of a game the session's sweeper ended.
//
// SetAPIBase changes discordgo's endpoint variables, which are
// process-global: call it before New, and in tests point every Bot of a
// process at one base (or run them one after another).
//
// A Bot is safe for concurrent use; discordgo delivers each interaction on
// its own goroutine.
package discord
