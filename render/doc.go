// Package render turns game views into everything a chat shows of them,
// so that adapters hold no layout logic: the emoji board text with its
// status line (Text), a platform-neutral keyboard of buttons built within
// the Layout the adapter passes in (BoardKeyboard, ChallengeKeyboard), a
// PNG picture of the whole board (Picture), an animated GIF replay of a
// game (Replay), a PNG chart of a player's progress (Chart), the record
// of a game as text (Export), typed coordinates matching the board's
// labels (ParseCoord, FormatCoord), and the catalog of every user-facing
// message in English and Chinese (T, ErrorText, LangOf).
//
// An adapter shows Text, maps the Keyboard's rows onto its buttons (the
// callback data of each comes from its Action), and also sends Picture
// when the keyboard is Partial. The board picture's labels are letters
// and digits; the words in the chart and in the replay's last frame are
// in the user's language, with the Chinese letters of this package's
// messages only (fonts/cjk.otf). ReplayCaption and ChartCaption give the
// text to send with them. Everything here is a pure function of its
// arguments and safe for concurrent use.
package render
