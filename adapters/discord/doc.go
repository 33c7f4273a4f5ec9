// Package discord plays the bot's games on Discord through discordgo:
// slash commands (/play, /move, /resign, /undo, /stats, /top, /lang,
// /chatlang, /help) registered by bulk overwrite at start, and boards as
// messages whose buttons are the cells.
//
// Every interaction is answered within Discord's three seconds, with its
// first effect in the answer itself (through the gateway, the callback;
// through the Interactions Endpoint URL, the HTTP response): a tap on a
// board updates that message in place (type 7), a command posts its
// message (type 4), a refusal is an ephemeral reply only the tapper sees.
// The answer is written once the decision is committed. When the AI
// searches longer (the session's Request.Think hook: hard on boards
// larger than 4×4, the AI pool's rule), or an action is still running
// when Config.DeferAfter has passed since the interaction arrived (one
// timer, from Config.After), the interaction is deferred first (type 6
// or 5) and its message edited once, when the move is committed.
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
