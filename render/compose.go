package render

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// Board is what a message showing a game or a challenge holds, the same
// on every platform; a platform adds only what is its own (uploading the
// picture, Discord's mentions and /move hint).
type Board struct {
	// Text is the whole message (Message): who plays which game, the
	// emoji board, the status lines and, when the buttons show part of
	// a larger board, which part (WindowText).
	Text string
	// Caption is the text that goes with the picture of the whole board
	// where a platform shows the picture instead of Text: Text without
	// the emoji board. Empty unless HasPicture is set.
	Caption string
	// Keyboard is the message's buttons, within the layout asked for.
	Keyboard Keyboard
	// HasPicture says the buttons show part of the board, so the message
	// comes with a picture of the whole board (the PNG of Picture). For a
	// game it depends on its rules and the layout alone, so a board
	// message never changes kind.
	HasPicture bool
}

// Compose returns the message that shows v in language l with buttons
// within layout; window is the top-left cell of the part of a large
// board the buttons show (nil: around the last move), as for
// BoardKeyboard.
func Compose(v session.View, l Lang, layout Layout, window *engine.Point) Board {
	text, kb := Message(v, l, layout, window)
	b := Board{Text: text, Keyboard: kb, HasPicture: kb.Partial}
	if b.HasPicture {
		header, lines := textParts(v, l)
		b.Caption = header + "\n" + lines
		if w := WindowText(v, kb, l); w != "" {
			b.Caption += "\n" + w
		}
	}
	return b
}

// IsChallenge reports whether v is a duel challenge rather than a game:
// open, or declined, cancelled or lapsed before it was accepted.
func IsChallenge(v session.View) bool {
	switch v.Status() {
	case session.Open, session.Declined, session.Cancelled, session.Lapsed:
		return true
	}
	return false
}

// Message returns the text and keyboard of the message that shows v in
// language l: for a challenge, ChallengeText and ChallengeKeyboard; for a
// game, Text and BoardKeyboard, and which cells the buttons are when they
// show part of the board (WindowText). The keyboard fits layout; window is
// as for BoardKeyboard.
func Message(v session.View, l Lang, layout Layout, window *engine.Point) (string, Keyboard) {
	if IsChallenge(v) {
		return ChallengeText(v, l), ChallengeKeyboard(v, l, layout)
	}
	text, kb := Text(v, l), BoardKeyboard(v, l, layout, window)
	if w := WindowText(v, kb, l); w != "" {
		text += "\n" + w
	}
	return text, kb
}

// ChallengeText returns the text of a challenge's message: who challenges
// whom to which game and with which colour while it is open, and how it
// ended once declined, cancelled or lapsed.
func ChallengeText(v session.View, l Lang) string {
	from := v.Challenger()
	if from == engine.Empty {
		return Text(v, l)
	}
	challenger := SeatName(v.Seat(from), l)
	to := v.Seat(from.Opponent()).User
	switch v.Status() {
	case session.Declined:
		return T(l, MsgChallengeDeclined, SeatName(session.Seat{User: to}, l))
	case session.Cancelled:
		return T(l, MsgChallengeCanceled, challenger)
	case session.Lapsed:
		return T(l, MsgChallengeLapsed, challenger)
	case session.Open:
		colour := T(l, MsgChallengerPlays, challenger, Stone(v.Rules(), from))
		if to == (session.User{}) {
			return T(l, MsgChallengeOpen, challenger, GameName(l, v.Rules()), colour)
		}
		return T(l, MsgChallengeTo, challenger, SeatName(session.Seat{User: to}, l), GameName(l, v.Rules()), colour)
	}
	return Text(v, l)
}

// ChallengeKeyboard returns the buttons of an open challenge within
// layout: Accept, Decline when it is addressed to someone, and Cancel for
// the challenger. An answered challenge has none.
func ChallengeKeyboard(v session.View, l Lang, layout Layout) Keyboard {
	if v.Status() != session.Open {
		return Keyboard{}
	}
	row := []Button{{Label: T(l, MsgAcceptButton), Action: Action{Kind: Accept, Game: v.ID()}}}
	if to := v.Seat(v.Challenger().Opponent()).User; to != (session.User{}) {
		row = append(row, Button{Label: T(l, MsgDeclineButton), Action: Action{Kind: Decline, Game: v.ID()}})
	}
	row = append(row, Button{Label: T(l, MsgCancelButton), Action: Action{Kind: Cancel, Game: v.ID()}})
	return Keyboard{Rows: chunk(row, layout)}
}

// Layout is the most a platform shows as one message's buttons. A zero
// field means no limit of that kind.
type Layout struct {
	// Columns is the most buttons in one row.
	Columns int
	// Rows is the most rows, control rows included.
	Rows int
	// Buttons is the most buttons in all, controls included.
	Buttons int
}

// The layouts of the platforms.
var (
	// TelegramLayout is an inline keyboard: 8 buttons a row, 100 in all.
	TelegramLayout = Layout{Columns: 8, Buttons: 100}
	// DiscordLayout is a message's components: 5 action rows of 5 buttons.
	DiscordLayout = Layout{Columns: 5, Rows: 5, Buttons: 25}
	// ConsoleLayout is the terminal's: the Telegram layout, so that local
	// play walks the same windows and arrows a phone does, and numbered
	// buttons stay short.
	ConsoleLayout = TelegramLayout
)

// fits reports whether a w×h window of cells and controls more buttons
// fit l.
func (l Layout) fits(w, h, controls int) bool {
	if l.Columns > 0 && w > l.Columns {
		return false
	}
	if l.Rows > 0 && h+l.rowsFor(controls) > l.Rows {
		return false
	}
	return l.Buttons <= 0 || w*h+controls <= l.Buttons
}

// rowsFor returns how many rows n controls take.
func (l Layout) rowsFor(n int) int {
	if n == 0 {
		return 0
	}
	if l.Columns <= 0 {
		return 1
	}
	return (n + l.Columns - 1) / l.Columns
}

// Message length limits of the platforms, in UTF-16 code units (Telegram
// counts those; Discord counts code points, never more than UTF-16 units).
// Text of any game fits both: the 19×19 board with the longest names is
// under 1,100 units.
const (
	TelegramTextLimit = 4096
	DiscordTextLimit  = 2000
)

// maxNameRunes caps a person's name on the board, so that the text of any
// game stays within the platforms' limits.
const maxNameRunes = 32

// TextLen returns the length of s in UTF-16 code units, the measure of
// TelegramTextLimit and DiscordTextLimit.
func TextLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Text returns the whole message that shows a game, in language l: who
// plays whom and which game (GameName), the board, the status line, the
// last move, and the takebacks: how many the game had, and a request
// awaiting an answer.
func Text(v session.View, l Lang) string {
	header, lines := textParts(v, l)
	return header + "\n\n" + Grid(v) + "\n" + lines
}

// textParts returns the parts of Text around the board: the header line,
// and the lines below the board.
func textParts(v session.View, l Lang) (header, lines string) {
	header = T(l, MsgHeaderGame, T(l, MsgVs, seatLabel(v, engine.Black, l), seatLabel(v, engine.White, l)), GameName(l, v.Rules()))
	var sb strings.Builder
	sb.WriteString(Status(v, l))
	if last, ok := v.LastMove(); ok {
		sb.WriteString("\n")
		sb.WriteString(T(l, MsgLastMove, Stone(v.Rules(), lastMover(v)), FormatCoord(last, v.Rules())))
	}
	if n := v.Takebacks(); n > 0 {
		sb.WriteString("\n")
		sb.WriteString(T(l, MsgTakebacks, n))
	}
	if h, ok := v.Hint(); ok && v.Status() == session.Running {
		sb.WriteString("\n")
		sb.WriteString(T(l, MsgHintShown, hintGlyph, FormatCoord(h, v.Rules()), v.HintsLeft()))
	} else if n := v.Hints(); n > 0 {
		sb.WriteString("\n")
		sb.WriteString(T(l, MsgHintsUsed, n))
	}
	if asker := v.UndoAsk(); asker != engine.Empty && v.Status() == session.Running {
		sb.WriteString("\n")
		sb.WriteString(T(l, MsgUndoAsked, seatLabel(v, asker, l), seatLabel(v, asker.Opponent(), l)))
	}
	return header, sb.String()
}

// lastMover returns the side that played the last move.
func lastMover(v session.View) engine.Stone { return v.ToMove().Opponent() }

// marks returns the cells drawn marked: the winning line once won, else
// the last move.
func marks(v session.View) []engine.Point {
	if line := v.WinningLine(); len(line) > 0 {
		return line
	}
	if last, ok := v.LastMove(); ok {
		return []engine.Point{last}
	}
	return nil
}

// Grid returns the emoji board of a game, one line per row ending in a
// newline, with column letters above and row numbers at the left, the
// names typed moves use (FormatCoord). The glyphs are described at glyphs;
// under renju, points forbidden to Black show ⛔ while Black is to move.
func Grid(v session.View) string {
	r := v.Rules()
	b := v.Board()
	g := glyphsFor(r)
	marked := marks(v)
	fouls := v.Fouls()
	hint, hinted := v.Hint()
	var sb strings.Builder
	sb.WriteString(emojiColumnHeader(r))
	sb.WriteString("\n")
	for y := range r.Height {
		sb.WriteString(emojiRowLabel(y, r))
		for x := range r.Width {
			p := engine.Point{X: x, Y: y}
			if _, ok := fouls[p]; ok {
				sb.WriteString(forbiddenGlyph)
				continue
			}
			if hinted && p == hint && b.At(p) == engine.Empty {
				sb.WriteString(hintGlyph)
				continue
			}
			sb.WriteString(g.cell(b.At(p), slices.Contains(marked, p)))
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// Status returns the line under the board: whose turn it is, or who won
// and why the game ended (a line, a full board, a resignation, expiry, an
// abort).
func Status(v session.View, l Lang) string {
	return status(v, l, func(s engine.Stone) string { return seatLabel(v, s, l) })
}

// status is Status with each side called name(side).
func status(v session.View, l Lang, name func(engine.Stone) string) string {
	switch v.Status() {
	case session.Running:
		return T(l, MsgTurn, name(v.ToMove()))
	case session.Won:
		n := max(len(v.WinningLine()), v.Rules().K)
		if v.Rules().Renju && n > v.Rules().K {
			return T(l, MsgWinsOverline, name(v.Winner()), Number(l, n))
		}
		return T(l, MsgWinsLine, name(v.Winner()), Number(l, n))
	case session.Drawn:
		return T(l, MsgDraw)
	case session.Resigned:
		return sentences(l, T(l, MsgResigned, name(v.Winner().Opponent())), T(l, MsgWins, name(v.Winner())))
	case session.Aborted:
		return T(l, MsgAborted)
	}
	if v.Winner() != engine.Empty {
		// Only a duel expires with a winner: the player to move ran out
		// of time.
		return sentences(l, T(l, MsgExpired), T(l, MsgOutOfTime, name(v.Winner().Opponent())), T(l, MsgWins, name(v.Winner())))
	}
	return T(l, MsgExpired)
}

// sentences joins sentences of language l: with a space in English, with
// none after Chinese full stops.
func sentences(l Lang, s ...string) string {
	if l == Chinese {
		return strings.Join(s, "")
	}
	return strings.Join(s, " ")
}

// seatLabel returns side s's stone and the name of its seat.
func seatLabel(v session.View, s engine.Stone, l Lang) string {
	return Stone(v.Rules(), s) + " " + SeatName(v.Seat(s), l)
}

// SeatName returns how a seat is called: the person's name, cleaned (see
// CleanName), else their handle, else "Player" and the end of their id;
// or the AI and its level.
func SeatName(s session.Seat, l Lang) string {
	if s.AI == engine.Adaptive && s.Rung.Valid() {
		return T(l, MsgAI, T(l, MsgAdaptiveAt, int(math.Round(s.Rung.Elo()))))
	}
	if s.IsAI() {
		return T(l, MsgAI, LevelName(l, s.AI))
	}
	if name := CleanName(s.User.Name); name != "" {
		return name
	}
	if name := CleanName(s.User.Handle); name != "" {
		return name
	}
	return T(l, MsgPlayer, idTail(s.User.ID))
}

// idTail returns the last four letters or digits of a user id, enough to
// tell apart two players whose names show nothing.
func idTail(id string) string {
	var tail []rune
	rs := []rune(id)
	for i := len(rs) - 1; i >= 0 && len(tail) < 4; i-- {
		if r := rs[i]; r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			tail = append([]rune{r}, tail...)
		}
	}
	if len(tail) == 0 {
		return "?"
	}
	return string(tail)
}

// glyphs are the cell pictures of one family of games.
//
// The board text is a grid of emoji, and chat clients draw every emoji in
// the same square box whatever the font around it, on phones and desktops
// alike (Telegram draws its own emoji images, Discord draws Twemoji). So
// every cell and every label is one emoji of Emoji_Presentation, and no
// plain character, space or full-width letter appears between the first
// and last glyph of a board line: those have font-dependent widths and
// would shift the columns.
//
//   - Cells: ⬜ empty, ❌ ⭕ stones for the tic-tac-toe family (K ≤ 4);
//     🟫 empty (a wooden board), ⚫ ⚪ stones for five in a row.
//   - The last move and, once won, the winning line keep what tells the
//     sides apart and never look like an empty cell of any board: ✖️ 🅾️
//     in tic-tac-toe (still an X and an O; ❎ would be a green tick box),
//     ◼️ ◻️ in gomoku (still black and white; a square stone stands out
//     among round ones, and ◻️ is smaller than ⬜, the empty cell of 3×3).
//   - Row numbers are keycap digits (1️⃣ … 9️⃣, 1️⃣0️⃣ … 1️⃣9️⃣). On boards of
//     ten rows or more every row label is two keycaps wide, the numbers
//     below ten padded on the left with ▪️, so the board's left edge is one
//     straight line.
//   - Column letters are the regional-indicator letters 🇦 … 🇸, the only
//     emoji alphabet. Two of them side by side make a flag (🇨🇩, 🇩🇪…), so
//     a zero-width non-joiner (U+200C) separates each pair: Unicode's
//     grapheme rules and font shapers both refuse to join across it, and it
//     has no width. The corner above the row labels is ▪️ padding.
//
// Known risk: a client that has no picture for a lone regional indicator
// falls back to a plain letter, and then only the header row drifts; the
// cells, the row labels and the coordinates in the status line stay right,
// and boards too large for one keyboard also come as a picture (Picture).
type glyphs struct {
	empty string
	// stone and marked are indexed by engine.Black-1 and engine.White-1;
	// marked shows the last move, or the winning line once won.
	stone, marked [2]string
}

var (
	ticTacToeGlyphs = glyphs{empty: "⬜", stone: [2]string{"❌", "⭕"}, marked: [2]string{"✖️", "🅾️"}}
	gomokuGlyphs    = glyphs{empty: "🟫", stone: [2]string{"⚫", "⚪"}, marked: [2]string{"◼️", "◻️"}}
)

// Label glyphs: padding, keycap digits and regional-indicator letters.
const (
	padGlyph   = "▪️"
	keycapTail = "\uFE0F\u20E3"
	zwnj       = "\u200C"
	riA        = '\U0001F1E6'
)

// glyphsFor picks the pictures for a game: X and O on boards of K ≤ 4,
// black and white stones for five in a row.
// hintGlyph marks the empty cell a hint suggests, on the emoji board and
// on its button: a target, unlike any stone or empty cell.
const hintGlyph = "🎯"

func glyphsFor(r engine.Rules) glyphs {
	if r.K >= 5 {
		return gomokuGlyphs
	}
	return ticTacToeGlyphs
}

// Stone returns the picture of side s's stone in a game of rules r.
func Stone(r engine.Rules, s engine.Stone) string { return glyphsFor(r).stone[s-1] }

// cell returns the picture of a cell holding s: empty, a stone, or a
// marked stone.
func (g glyphs) cell(s engine.Stone, isMarked bool) string {
	switch {
	case s == engine.Empty:
		return g.empty
	case isMarked:
		return g.marked[s-1]
	}
	return g.stone[s-1]
}

// rowLabelWidth returns how many glyphs wide the row labels of a board
// are: two from ten rows up, else one.
func rowLabelWidth(r engine.Rules) int {
	if r.Height >= 10 {
		return 2
	}
	return 1
}

// emojiRowLabel returns the keycap label of row y, padded to the board's
// label width.
func emojiRowLabel(y int, r engine.Rules) string {
	n := RowLabel(y, r.Height)
	var sb strings.Builder
	for range rowLabelWidth(r) - len(n) {
		sb.WriteString(padGlyph)
	}
	for _, d := range n {
		sb.WriteRune(d)
		sb.WriteString(keycapTail)
	}
	return sb.String()
}

// emojiColumnHeader returns the header line of column letters, without its
// newline.
func emojiColumnHeader(r engine.Rules) string {
	var sb strings.Builder
	for range rowLabelWidth(r) {
		sb.WriteString(padGlyph)
	}
	for x := range r.Width {
		if x > 0 {
			sb.WriteString(zwnj)
		}
		sb.WriteRune(riA + rune(x))
	}
	return sb.String()
}

// Coordinates name cells the way the board labels them: a column letter
// from "a" at the left, then a row number from 1 at the bottom, as in
// "h8". Every board shows them, 3×3 too ("b2" is its centre).

// ColumnLabel returns the letter of column x: "A" for the leftmost.
func ColumnLabel(x int) string { return string(rune('A' + x)) }

// RowLabel returns the number shown for row y (counted from the top) on a
// board of the given height: rows are numbered from 1 at the bottom.
func RowLabel(y, height int) string { return strconv.Itoa(height - y) }

// FormatCoord returns the name of p on a board of rules r, such as "h8".
func FormatCoord(p engine.Point, r engine.Rules) string {
	return strings.ToLower(ColumnLabel(p.X)) + RowLabel(p.Y, r.Height)
}

// ErrBadCoord is returned by ParseCoord for text that names no cell of the
// board.
var ErrBadCoord = errors.New("render: not a cell")

// coordError is a ParseCoord error: it wraps ErrBadCoord and carries its
// catalog message, which quotes the input.
type coordError struct {
	input, why string
}

// Error returns the error's text, quoting the input.
func (e *coordError) Error() string {
	if e.why != "" {
		return fmt.Sprintf("%v: %q %s", ErrBadCoord, e.input, e.why)
	}
	return fmt.Sprintf("%v: %q", ErrBadCoord, e.input)
}

// Unwrap returns ErrBadCoord.
func (e *coordError) Unwrap() error { return ErrBadCoord }

// Message returns the catalog message of the error.
func (e *coordError) Message() (Key, []any) { return MsgBadCoord, []any{e.input} }

// ParseCoord reads a cell name such as "h8", "H 8" or "8h" on a board of
// rules r. It returns an error wrapping ErrBadCoord for anything else,
// including cells off the board; ErrorText gives its message.
func ParseCoord(s string, r engine.Rules) (engine.Point, error) {
	bad := &coordError{input: s}
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	if t == "" || len(t) > 3 {
		return engine.Point{}, bad
	}
	var letter byte
	var digits string
	switch {
	case t[0] >= 'a' && t[0] <= 'z':
		letter, digits = t[0], t[1:]
	case t[len(t)-1] >= 'a' && t[len(t)-1] <= 'z':
		letter, digits = t[len(t)-1], t[:len(t)-1]
	default:
		return engine.Point{}, bad
	}
	if digits == "" || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return engine.Point{}, bad
	}
	row, err := strconv.Atoi(digits)
	if err != nil {
		return engine.Point{}, bad
	}
	p := engine.Point{X: int(letter - 'a'), Y: r.Height - row}
	if !r.Contains(p) {
		bad.why = fmt.Sprintf("is off the %dx%d board", r.Width, r.Height)
		return engine.Point{}, bad
	}
	return p, nil
}

// maxMarks caps the combining marks kept on one character, so that a
// name stacked with hundreds of them cannot spill over the lines around
// it.
const maxMarks = 2

// CleanName returns a person's name as it is safe to show anywhere: with
// no control characters (ANSI escapes included), no format characters
// (zero-width spaces, bidi overrides), no blank filler letters, runs of
// spaces folded into one, at most maxMarks combining marks on a
// character, and at most maxNameRunes characters. A zero-width joiner is
// kept only inside an emoji or script sequence, where it joins two
// visible characters. A name with nothing visible left is "".
func CleanName(name string) string {
	var out []rune
	marks := 0
	space := false
	rs := []rune(name)
	for _, r := range rs {
		switch {
		case r == zwj:
			if len(out) > 0 && !space {
				out = append(out, r)
			}
			continue
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			space = len(out) > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r),
			unicode.Is(unicode.Cs, r), filler(r), r == unicode.ReplacementChar:
			continue
		case unicode.In(r, unicode.Mn, unicode.Me):
			if len(out) == 0 || marks >= maxMarks {
				continue
			}
			marks++
			out = append(out, r)
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		marks = 0
		out = append(out, r)
	}
	out = joinersBetweenVisible(out)
	if !anyVisible(out) {
		return ""
	}
	if len(out) > maxNameRunes {
		out = append(joinersBetweenVisible(out[:maxNameRunes-1]), '…')
	}
	return strings.TrimSpace(string(out))
}

// zwj is the zero-width joiner, which glues emoji and script sequences.
const zwj = '\u200d'

// joinersBetweenVisible drops the joiners of rs that do not stand between
// a visible character (with its marks) and a visible character.
func joinersBetweenVisible(rs []rune) []rune {
	out := rs[:0:0]
	for i, r := range rs {
		if r == zwj && (len(out) == 0 || out[len(out)-1] == ' ' || out[len(out)-1] == zwj || i+1 >= len(rs) || !visible(rs[i+1])) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// filler reports whether r is a letter or symbol that draws nothing, the
// kind used to make a name look empty.
func filler(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u3164', '\uffa0', '\u2800', '\u17b4', '\u17b5', '\u034f':
		return true
	}
	return false
}

// visible reports whether r draws something on its own.
func visible(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Cc) && r != zwj
}

// anyVisible reports whether any rune of rs draws something.
func anyVisible(rs []rune) bool {
	for _, r := range rs {
		if visible(r) {
			return true
		}
	}
	return false
}

// The names of games, families and levels.
const (
	MsgGameTicTacToe Key = "game_ttt"
	// MsgGameGomoku names a gomoku preset by its size.
	MsgGameGomoku Key = "game_gomoku"
	// MsgGameInARow names any other board by its size and K, a word of
	// MsgNumbers.
	MsgGameInARow Key = "game_in_a_row"
	// MsgGameExactly is MsgGameInARow for exact-K rules.
	MsgGameExactly Key = "game_exactly"
	// MsgGameRenju names a renju game by its size.
	MsgGameRenju Key = "game_renju"
	// MsgNumbers are the words for the numbers from 0 up, space-separated.
	MsgNumbers      Key = "numbers"
	MsgFamilyNxN    Key = "family_nxn"
	MsgFamilyGomoku Key = "family_gomoku"
	MsgFamilyRenju  Key = "family_renju"
	MsgLevelEasy    Key = "level_easy"
	MsgLevelMedium  Key = "level_medium"
	MsgLevelHard    Key = "level_hard"
	// MsgHeaderGame is the first line of a board: who plays whom, and
	// the game.
	MsgHeaderGame Key = "header_game"
)

// Number returns n as a word in language l ("four", "四"), or in digits
// beyond the words the catalog has.
func Number(l Lang, n int) string {
	words := strings.Fields(T(l, MsgNumbers))
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// GameName returns the name of the game of rules r in language l, naming
// the board, K and the exact rule unless the preset's name says them:
// "Tic-tac-toe", "Gomoku 15×15", "4×4, four in a row", "6×4, three in a
// row", "9×9, exactly five in a row", "Renju 15×15".
func GameName(l Lang, r engine.Rules) string {
	name := r.String()
	switch {
	case r.Renju:
		return T(l, MsgGameRenju, r.Width, r.Height)
	case name == "ttt":
		return T(l, MsgGameTicTacToe)
	case name == "gomoku" || name == "gomoku19":
		return T(l, MsgGameGomoku, r.Width, r.Height)
	case r.Exact:
		return T(l, MsgGameExactly, r.Width, r.Height, Number(l, r.K))
	}
	return T(l, MsgGameInARow, r.Width, r.Height, Number(l, r.K))
}

// FamilyName returns the name of a family of games, as /stats lists
// them: "Tic-tac-toe", "Other boards", "Gomoku", "Renju".
func FamilyName(l Lang, f engine.Family) string {
	switch f {
	case engine.FamilyRenju:
		return T(l, MsgFamilyRenju)
	case engine.FamilyTicTacToe:
		return T(l, MsgGameTicTacToe)
	case engine.FamilyGomoku:
		return T(l, MsgFamilyGomoku)
	}
	return T(l, MsgFamilyNxN)
}

// LevelName returns the name of an AI level in language l: "easy",
// "medium", "hard"; "简单", "中等", "困难".
func LevelName(l Lang, lv engine.Level) string {
	switch lv {
	case engine.Easy:
		return T(l, MsgLevelEasy)
	case engine.Medium:
		return T(l, MsgLevelMedium)
	case engine.Hard:
		return T(l, MsgLevelHard)
	case engine.Adaptive:
		return T(l, MsgLevelAdaptive)
	}
	return lv.String()
}

// Follow returns the top-left cell to show the board of v at with layout
// after a move made while the window was at origin: origin (moved onto
// the board as BoardKeyboard does) while the window there holds the last
// move, so that a button keeps its cell from move to move; else nil, the
// window around the last move.
func Follow(v session.View, layout Layout, origin engine.Point) *engine.Point {
	r := v.Rules()
	win := chooseWindow(r, layout)
	win.Origin = origin
	win.Origin = clampOrigin(win, r)
	if last, ok := v.LastMove(); ok && !win.Contains(last) {
		return nil
	}
	return &win.Origin
}

// WindowText says which cells the buttons of kb, the keyboard of v, are
// when they are a window of a running game's board: "The buttons are
// columns d–k, rows 3–13." It is "" otherwise.
func WindowText(v session.View, kb Keyboard, l Lang) string {
	w := kb.Window
	if !kb.Partial || w.Width == 0 || v.Status() != session.Running {
		return ""
	}
	r := v.Rules()
	return T(l, MsgWindow,
		strings.ToLower(ColumnLabel(w.Origin.X)), strings.ToLower(ColumnLabel(w.Origin.X+w.Width-1)),
		RowLabel(w.Origin.Y+w.Height-1, r.Height), RowLabel(w.Origin.Y, r.Height))
}

// ActionKind says what tapping a button does.
type ActionKind uint8

const (
	// Noop places nothing: an occupied cell or a cell of a finished
	// game's board, which carries Game and Cell so that a tap can be told
	// why, or a control with nothing to do, which carries nothing.
	Noop ActionKind = iota
	// Place puts a stone on Cell as move MoveNo.
	Place
	// Resign gives up the game.
	Resign
	// Scroll shows the window of a large board whose top-left cell is
	// Window; it changes no game state.
	Scroll
	// Rematch starts a new game with the rules of Game, colours swapped.
	Rematch
	// Accept takes up the challenge Game.
	Accept
	// Decline turns down the challenge Game (the challenged user).
	Decline
	// Cancel withdraws the challenge Game (the challenger).
	Cancel
	// Undo asks to take back the tapper's last move in Game, at move
	// MoveNo: at once against the AI, by asking the opponent in a duel.
	Undo
	// UndoAccept grants the opponent's takeback request in Game, at move
	// MoveNo.
	UndoAccept
	// UndoDecline turns down the opponent's takeback request in Game, at
	// move MoveNo.
	UndoDecline
	// Show shows the game Game in a new message and makes it the one the
	// tapper's typed moves go to: an answer of ChoiceKeyboard, which
	// first does Then in the game, if anything.
	Show
	// Hint marks the move the hard AI would play for the tapper in Game,
	// at move MoveNo (session.Service.Hint).
	Hint
	// ReplayGame sends the animated replay of the finished game Game
	// (Replay); it changes nothing.
	ReplayGame
	// ExportGame sends the record of the finished game Game (Export); it
	// changes nothing.
	ExportGame
	// StatsChart sends the tapper's progress chart (Chart) again; it
	// carries nothing.
	StatsChart
)

// Action is what a button does when tapped: everything needed to act on it
// travels with the button, so adapters keep no state between taps.
type Action struct {
	Kind   ActionKind
	Game   session.GameID
	MoveNo int
	Cell   engine.Point
	// Window is the top-left cell of the board window to show (Scroll),
	// or of the window the cell was tapped in (Place on a board larger
	// than the keyboard), so that the window stays where it is.
	Window engine.Point
	// Then is what a Show does in Game before showing it: Resign, Undo or
	// Hint at move MoveNo, or Place on Cell as move MoveNo; Noop does
	// nothing more.
	Then ActionKind
}

// Button is one button of a keyboard.
type Button struct {
	Label  string
	Action Action
}

// Live reports whether tapping the button does something; the adapter may
// show other buttons as disabled, or answer their taps with nothing.
func (b Button) Live() bool { return b.Action.Kind != Noop }

// Window is a rectangle of a board's cells: its top-left cell and size.
type Window struct {
	Origin        engine.Point
	Width, Height int
}

// Contains reports whether p is inside the window.
func (w Window) Contains(p engine.Point) bool {
	return p.X >= w.Origin.X && p.X < w.Origin.X+w.Width && p.Y >= w.Origin.Y && p.Y < w.Origin.Y+w.Height
}

// Keyboard is a grid of buttons, row by row: the board's cells first, then
// rows of controls.
type Keyboard struct {
	Rows [][]Button
	// Window is the part of the board whose cells are the first rows: row
	// r, column c of the keyboard is cell Origin.X+c, Origin.Y+r.
	Window Window
	// Partial reports whether Window is less than the whole board. The
	// adapter then also shows Picture, since the buttons show only part of
	// the game.
	Partial bool
}

// Buttons returns the number of buttons.
func (k Keyboard) Buttons() int {
	n := 0
	for _, r := range k.Rows {
		n += len(r)
	}
	return n
}

// Labels of buttons that are not cells.
const (
	// emptyLabel is the label of an empty cell on a whole board: a blank
	// that keeps the button tappable on every platform. On a window, empty
	// cells show their coordinates instead, so the player knows where the
	// window is.
	emptyLabel = "·"
	leftLabel  = "⬅️"
	rightLabel = "➡️"
	upLabel    = "⬆️"
	downLabel  = "⬇️"
)

// BoardKeyboard returns the keyboard of a game within layout: one button
// per cell, live on empty cells while the game runs, then the controls:
// window arrows when the board does not fit, then Resign while the game
// runs or Rematch once it is over, then the takeback and hint buttons
// (see undoButtons, hintButtons) where the layout has room for them: always on a layout
// with no row limit, and on Discord's for boards up to 4×4.
//
// A board that fits is whole: row r, column c of the keyboard is cell c, r.
// A larger board shows the largest window that fits, with its top-left
// cell at *window (moved onto the board when it hangs over an edge), or,
// when window is nil, around the last move or else the board's centre.
// Each arrow is a Scroll action carrying the next window's top-left cell,
// so moving the window needs no state on the server; an arrow at the edge
// of the board is a Noop. A layout too small for one cell and its
// controls gives a keyboard of just Resign or Rematch.
func BoardKeyboard(v session.View, l Lang, layout Layout, window *engine.Point) Keyboard {
	r := v.Rules()
	running := v.Status() == session.Running
	win := chooseWindow(r, layout)
	partial := win.Width < r.Width || win.Height < r.Height
	if win.Width > 0 {
		focus := engine.Point{X: r.Width / 2, Y: r.Height / 2}
		if last, ok := v.LastMove(); ok {
			focus = last
		}
		if h, ok := v.Hint(); ok {
			focus = h
		}
		win.Origin = engine.Point{X: focus.X - win.Width/2, Y: focus.Y - win.Height/2}
		if window != nil {
			win.Origin = *window
		}
		win.Origin = clampOrigin(win, r)
	}

	kb := Keyboard{Window: win, Partial: partial}
	b := v.Board()
	g := glyphsFor(r)
	marked := marks(v)
	fouls := v.Fouls()
	hint, hinted := v.Hint()
	for y := win.Origin.Y; y < win.Origin.Y+win.Height; y++ {
		row := make([]Button, 0, win.Width)
		for x := win.Origin.X; x < win.Origin.X+win.Width; x++ {
			p := engine.Point{X: x, Y: y}
			btn := Button{Label: emptyLabel, Action: Action{Kind: Noop, Game: v.ID(), Cell: p}}
			switch s := b.At(p); {
			case s != engine.Empty:
				btn.Label = g.cell(s, slices.Contains(marked, p))
			case running:
				btn.Action = Action{Kind: Place, Game: v.ID(), MoveNo: v.MoveNo(), Cell: p}
				if partial {
					btn.Action.Window = win.Origin
				}
				fallthrough
			default:
				if partial {
					btn.Label = FormatCoord(p, r)
				}
				if hinted && p == hint {
					btn.Label = hintGlyph
				}
			}
			if _, ok := fouls[p]; ok {
				// Still a Place: a tap is refused with the foul's name.
				btn.Label = forbiddenGlyph
			}
			row = append(row, btn)
		}
		kb.Rows = append(kb.Rows, row)
	}

	var controls []Button
	if win.Width > 0 && partial {
		controls = arrows(v.ID(), win, r)
	}
	if running {
		controls = append(controls, Button{Label: T(l, MsgResignButton), Action: Action{Kind: Resign, Game: v.ID()}})
		if undo := append(undoButtons(v, l), hintButtons(v, l)...); win.Width > 0 && layout.fits(win.Width, win.Height, len(controls)+len(undo)) {
			controls = append(controls, undo...)
		}
	} else {
		// ▶️ and 📋 come before Rematch, which stays last, where there is
		// room for them.
		if len(v.Moves()) > 0 && layout.fits(win.Width, win.Height, len(controls)+3) {
			controls = append(controls,
				Button{Label: T(l, MsgReplayButton, ""), Action: Action{Kind: ReplayGame, Game: v.ID()}},
				Button{Label: T(l, MsgExportButton, ""), Action: Action{Kind: ExportGame, Game: v.ID()}})
		}
		controls = append(controls, Button{Label: T(l, MsgRematchButton), Action: Action{Kind: Rematch, Game: v.ID()}})
	}
	kb.Rows = append(kb.Rows, chunk(controls, layout)...)
	return kb
}

// chooseWindow returns the size of the largest window of a board of rules
// r that fits layout with its controls (arrows for each direction the
// window can move, and one more button, and on a layout with no row limit
// room for the takeback and hint buttons too): the whole board when it fits, else
// the widest window, as tall as fits under it. Width comes first because
// a phone shows a row of buttons at once but scrolls a tall keyboard. The
// size is zero when not even one cell fits.
func chooseWindow(r engine.Rules, layout Layout) Window {
	best := Window{}
	for w := 1; w <= r.Width; w++ {
		for h := 1; h <= r.Height; h++ {
			controls := 1
			if layout.Rows == 0 {
				controls += maxUndoButtons + 1
			}
			if w < r.Width {
				controls += 2
			}
			if h < r.Height {
				controls += 2
			}
			if !layout.fits(w, h, controls) {
				continue
			}
			if w > best.Width || (w == best.Width && h > best.Height) {
				best = Window{Width: w, Height: h}
			}
		}
	}
	return best
}

// clampOrigin returns the window's top-left cell moved, if need be, so
// that the whole window lies on the board.
func clampOrigin(w Window, r engine.Rules) engine.Point {
	return engine.Point{
		X: max(0, min(w.Origin.X, r.Width-w.Width)),
		Y: max(0, min(w.Origin.Y, r.Height-w.Height)),
	}
}

// arrows returns the buttons that move a window: left and right when it is
// narrower than the board, up and down when it is shorter. Each moves by
// the window's size less one cell, so one row or column stays in view.
func arrows(id session.GameID, w Window, r engine.Rules) []Button {
	var out []Button
	arrow := func(label string, to engine.Point) Button {
		moved := w
		moved.Origin = to
		to = clampOrigin(moved, r)
		if to == w.Origin {
			return Button{Label: emptyLabel}
		}
		return Button{Label: label, Action: Action{Kind: Scroll, Game: id, Window: to}}
	}
	o := w.Origin
	dx, dy := max(1, w.Width-1), max(1, w.Height-1)
	if w.Width < r.Width {
		out = append(out, arrow(leftLabel, engine.Point{X: o.X - dx, Y: o.Y}))
	}
	if w.Height < r.Height {
		out = append(out,
			arrow(upLabel, engine.Point{X: o.X, Y: o.Y - dy}),
			arrow(downLabel, engine.Point{X: o.X, Y: o.Y + dy}))
	}
	if w.Width < r.Width {
		out = append(out, arrow(rightLabel, engine.Point{X: o.X + dx, Y: o.Y}))
	}
	return out
}

// chunk splits buttons into rows of at most layout.Columns buttons; the
// callers make sure the rows and buttons in all fit the layout.
func chunk(buttons []Button, layout Layout) [][]Button {
	n := layout.Columns
	if n <= 0 {
		n = len(buttons)
	}
	var rows [][]Button
	for len(buttons) > 0 {
		k := min(n, len(buttons))
		rows = append(rows, buttons[:k:k])
		buttons = buttons[k:]
	}
	return rows
}

// maxUndoButtons is the most takeback buttons a keyboard shows.
const maxUndoButtons = 2

// undoButtons returns the takeback buttons of a running game: in a duel
// with a request pending, Accept and Decline for the opponent; otherwise
// ↩️, once the game has a move its player could take back (against the
// AI, a move of the person's).
func undoButtons(v session.View, l Lang) []Button {
	act := func(k ActionKind) Action { return Action{Kind: k, Game: v.ID(), MoveNo: v.MoveNo()} }
	if v.UndoAsk() != engine.Empty {
		return []Button{
			{Label: T(l, MsgUndoAcceptButton), Action: act(UndoAccept)},
			{Label: T(l, MsgUndoDeclineButton), Action: act(UndoDecline)},
		}
	}
	first := 1
	if !v.IsDuel() && v.Seat(engine.Black).IsAI() {
		first = 2
	}
	if v.MoveNo() < first {
		return nil
	}
	return []Button{{Label: T(l, MsgUndoButton), Action: act(Undo)}}
}

// hintButtons returns 💡 while the person playing the AI is to move, has
// hints left, and sees no hint yet.
func hintButtons(v session.View, l Lang) []Button {
	if _, shown := v.Hint(); shown || v.IsDuel() || v.HintsLeft() == 0 || v.Seat(v.ToMove()).IsAI() {
		return nil
	}
	return []Button{{Label: T(l, MsgHintButton), Action: Action{Kind: Hint, Game: v.ID(), MoveNo: v.MoveNo()}}}
}
