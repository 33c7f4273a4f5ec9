package render

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

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
	name := func(s engine.Stone) string { return seatLabel(v, s, l) }
	switch v.Status() {
	case session.Running:
		return T(l, MsgTurn, name(v.ToMove()))
	case session.Won:
		return T(l, MsgWinsLine, name(v.Winner()), Number(l, v.Rules().K))
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
