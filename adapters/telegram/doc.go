// Package telegram serves the board bot on Telegram through the Bot API
// client go-telegram-bot-api/v5.
//
// A Bot receives updates by long polling (its own context-aware loop on
// getUpdates that confirms an update's offset only once the update is kept
// in the session's inbox, honours retry_after on flood control and backs
// off on server and network errors) or through a webhook that checks
// Telegram's secret token header. An update leaves the inbox once handled,
// and Run replays what a crash left there before it polls, so no update
// Telegram was told arrived is lost. Updates of one chat are handled in order; different chats
// are handled in parallel by a bounded number of workers.
//
// Typed commands go to the shared adapters.Dispatcher and get a reply in
// the chat. A tap answers its callback query exactly once and edits the
// board message at most once; it never adds a message to the chat. Boards
// up to 8 columns are the inline keyboard itself; wider boards are a
// photo of the whole board with a window of cells and arrows as the
// keyboard, and typed coordinates such as "h8" reach every cell. In a
// duel only its two players' taps count. Bot.Expired shows the end of a
// game the session's sweeper ended on its board message. Errors of the Bot API are
// typed (APIError, ErrFlood, ErrNotModified, ErrTransient): flood waits
// honour retry_after and "message is not modified" counts as success.
//
// Flood control is kept to before Telegram has to refuse (Config.Pace):
// every call that sends or edits a message waits for a slot of its chat,
// its group and the whole bot, and edits wait in an outbox where a newer
// edit of the same message replaces an older one still waiting. A tap's
// answer, chat actions and polling are not paced and never wait for
// edits.
//
// A Bot is safe for concurrent use, Expired included; Run may be called
// once.
package telegram
