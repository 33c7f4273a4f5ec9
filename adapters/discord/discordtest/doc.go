// Package discordtest is a fake Discord for tests of bots built on
// discordgo: the REST API (gateway URL, bulk overwrite of application
// commands, interaction callbacks, follow-ups and original-response
// edits, channel messages) on an httptest server, and a websocket gateway
// (HELLO, IDENTIFY and READY, RESUME and RESUMED, heartbeats and ACKs)
// that dispatches the INTERACTION_CREATE events a test sends with Command
// and Tap.
//
// The server keeps every message, so a test taps the buttons it reads
// from the last update; it enforces Discord's limits on messages (5 rows
// of 5 buttons, unique custom_ids of at most 100 characters, 2000
// characters of text) and answers a second callback to one interaction
// with Discord's error. Messages take files as Discord does, in
// multipart/form-data bodies (payload_json and files[n]); an edit keeps
// the attachments its "attachments" field names (all when it names none)
// and adds the files it uploads, as in API v9. It records every REST call, can answer 429 with
// retry_after (RateLimit), and can drop the gateway connection to test
// resuming (DropConnection).
//
// A Server is safe for concurrent use; WaitFor waits for a condition
// without sleeping.
package discordtest
