// Package telegramtest is a fake Telegram Bot API server on loopback for
// end-to-end tests of bots built on go-telegram-bot-api.
//
// A Server speaks the Bot API's HTTP protocol (form or multipart requests
// to /bot<token>/<method>, JSON {"ok":…} answers) for the methods a board
// bot uses: getMe, getUpdates (long polling from a queue the test fills),
// sendMessage, editMessageText, editMessageReplyMarkup, editMessageMedia,
// sendPhoto, sendAnimation (a GIF of at most 50 MB, a caption of at most
// 1024 characters), answerCallbackQuery, sendChatAction, getChatMember (with
// the statuses SetMember sets), setMyCommands, setWebhook and
// deleteWebhook, and inline mode: inline queries, answerInlineQuery (at
// most 50 results with unique ids, one answer per query, within its
// window), chosen results, inline messages, their taps and their edits
// through inline_message_id (see InlineQuery). It records every call, keeps the state of
// every message the bot sent (text, photo or animation, caption, inline keyboard) so
// a test can tap a button by reading its callback data, answers "message
// is not modified" the way Telegram does, and can be told to fail chosen
// calls with 429 (retry_after), 400, 500, or to hold an answer until the
// test releases it. With Enforce it applies flood control as Telegram
// does: it counts the calls that make or change messages on arrival, per
// chat, per group and overall, and refuses those beyond the limits with
// 429 and retry_after.
//
// All methods of Server are safe for concurrent use.
package telegramtest
