// Package web serves the web board: one page, embedded in the binary, that
// shows a game of any chat as a real board and plays it on the same
// session as the chat's message. It is one more front of the dispatcher:
// a move from the page is decided as a tap on the chat's board, and the
// chat's message is edited through its platform's front. Who is who is
// proved by a Telegram Mini App's initData or by a signed, expiring link
// for one user in one game; the page follows the game live through the
// store's change feed, so moves made through any replica show.
package web
