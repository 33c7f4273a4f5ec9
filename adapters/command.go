package adapters

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// The commands of the grammar.
const (
	CmdStart   = "start"
	CmdHelp    = "help"
	CmdPlay    = "play"
	CmdResign  = "resign"
	CmdDuel    = "duel"
	CmdAccept  = "accept"
	CmdDecline = "decline"
	CmdCancel  = "cancel"
	CmdRematch = "rematch"
	CmdStats   = "stats"
	CmdTop     = "top"
	CmdLang    = "lang"
	CmdUndo    = "undo"
	CmdHint    = "hint"
	// CmdHistory lists the user's last finished games, CmdExport gives
	// the record of the last one.
	CmdHistory = "history"
	CmdExport  = "export"
	// CmdChatLang sets the chat's language, for chat administrators.
	CmdChatLang = "chatlang"
	// CmdGames lists the user's running games in the chat, a button
	// each that shows it.
	CmdGames = "games"
)

// MaxCommandLen is the longest command text parsed, in characters
// (runes); longer text is refused whole. Text of more than
// 4×MaxCommandLen bytes is longer.
const MaxCommandLen = 200

// Command is a parsed chat command.
type Command struct {
	// Name is one of the Cmd constants.
	Name string
	// Play holds the arguments of /play, with defaults filled in.
	Play PlayArgs
	// Duel holds the arguments of /duel, with defaults filled in.
	Duel DuelArgs
	// Board is the leaderboard /top asks for: session.ByRating, or
	// session.ByHardWins for "/top hard".
	Board session.Board
	// Lang is the language code of /lang, "en" or "zh", or of /chatlang,
	// where "" (typed "auto") leaves the chat without a language of its
	// own.
	Lang string
}

// DuelArgs are the choices of /duel.
type DuelArgs struct {
	// Opponent is the handle (platform username) the challenge is
	// addressed to, without '@'; empty for a challenge to anyone in the
	// chat, or to someone the platform names otherwise (Dispatcher.Duel).
	Opponent string
	Rules    engine.Rules
	// Side is the challenger's colour; random unless chosen.
	Side session.Side
}

// DefaultDuel returns the arguments of a bare /duel: tic-tac-toe, open to
// anyone, colours drawn at random.
func DefaultDuel() DuelArgs {
	return DuelArgs{Rules: engine.TicTacToe(), Side: session.RandomSide}
}

// PlayArgs are the choices of /play.
type PlayArgs struct {
	Level engine.Level
	Rules engine.Rules
	Side  session.Side
}

// DefaultPlay returns the arguments of a bare /play: medium tic-tac-toe,
// the player first.
func DefaultPlay() PlayArgs {
	return PlayArgs{Level: engine.Medium, Rules: engine.TicTacToe(), Side: session.First}
}

// ErrNotCommand is returned by ParseCommand for text that is not a command
// (no leading '/'), and ErrOtherBot for a command addressed to another bot
// (/play@OtherBot); both are to be ignored, not answered.
var (
	ErrNotCommand = errors.New("adapters: not a command")
	ErrOtherBot   = errors.New("adapters: command for another bot")
)

// CommandError is a command the grammar refuses; it carries the catalog
// message that explains it with an example of that command.
type CommandError struct {
	Key render.Key
	Arg string
	// Other is the word that Arg conflicts with, for the messages that
	// name two words (render.MsgPlayTwoLevels and the like).
	Other string
	// Command is the refused command, such as "/stats", for the messages
	// that name it (render.MsgNoArguments).
	Command string
}

func (e *CommandError) Error() string { return fmt.Sprintf("adapters: %s: %q", e.Key, e.Arg) }

// Message returns the catalog key and argument that explain the refusal.
func (e *CommandError) Message() (render.Key, []any) {
	switch e.Key {
	case render.MsgBadRules, render.MsgBadDuelRules, render.MsgBadLang, render.MsgBadChatLang, render.MsgDuelByName:
		return e.Key, nil
	case render.MsgNoArguments:
		return e.Key, []any{e.Arg, e.Command}
	case render.MsgPlayTwoLevels, render.MsgPlayTwoBoards, render.MsgPlayTwoSides, render.MsgPlayTwoK, render.MsgRenjuExact:
		return e.Key, []any{e.Other, e.Arg}
	}
	return e.Key, []any{e.Arg}
}

// ParseCommand parses text such as "/play hard gomoku second". botName,
// when not empty, is the bot's username: "/play@botName" is accepted and a
// command addressed to any other name gives ErrOtherBot. Unknown commands
// and malformed arguments give a *CommandError.
func ParseCommand(text, botName string) (Command, error) {
	if tooLong(text) {
		if !strings.HasPrefix(strings.TrimSpace(text), "/") {
			return Command{}, ErrNotCommand
		}
		return Command{}, &CommandError{Key: render.MsgTooLong, Arg: strconv.Itoa(MaxCommandLen)}
	}
	fields := strings.Fields(text)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return Command{}, ErrNotCommand
	}
	name, addressee, _ := strings.Cut(strings.TrimPrefix(fields[0], "/"), "@")
	if addressee != "" && botName != "" && !strings.EqualFold(addressee, botName) {
		return Command{}, ErrOtherBot
	}
	name = strings.ToLower(name)
	args := fields[1:]
	switch name {
	case CmdStart, CmdHelp, CmdResign, CmdAccept, CmdDecline, CmdCancel, CmdRematch, CmdStats, CmdUndo, CmdHint, CmdHistory, CmdExport, CmdGames:
		if len(args) > 0 {
			return Command{}, &CommandError{Key: render.MsgNoArguments, Arg: args[0], Command: "/" + name}
		}
		return Command{Name: name}, nil
	case CmdPlay:
		p, err := ParsePlay(args)
		return Command{Name: name, Play: p}, err
	case CmdDuel:
		d, err := parseDuel(args)
		return Command{Name: name, Duel: d}, err
	case CmdTop:
		switch {
		case len(args) == 0:
			return Command{Name: name, Board: session.ByRating}, nil
		case len(args) == 1 && strings.EqualFold(args[0], "hard"):
			return Command{Name: name, Board: session.ByHardWins}, nil
		}
		return Command{}, &CommandError{Key: render.MsgBadTopArgument, Arg: args[len(args)-1]}
	case CmdLang:
		if len(args) == 1 {
			if l := strings.ToLower(args[0]); l == string(render.English) || l == string(render.Chinese) {
				return Command{Name: name, Lang: l}, nil
			}
		}
		arg := ""
		if len(args) > 0 {
			arg = args[len(args)-1]
		}
		return Command{}, &CommandError{Key: render.MsgBadLang, Arg: arg}
	case CmdChatLang:
		if len(args) == 1 {
			switch l := strings.ToLower(args[0]); l {
			case string(render.English), string(render.Chinese):
				return Command{Name: name, Lang: l}, nil
			case "auto":
				return Command{Name: name}, nil
			}
		}
		arg := ""
		if len(args) > 0 {
			arg = args[len(args)-1]
		}
		return Command{}, &CommandError{Key: render.MsgBadChatLang, Arg: arg}
	}
	return Command{}, &CommandError{Key: render.MsgUnknownCommand, Arg: "/" + name}
}

// tooLong reports whether text has more than MaxCommandLen characters,
// counting no further than 4×MaxCommandLen bytes.
func tooLong(text string) bool {
	return len(text) > 4*MaxCommandLen || utf8.RuneCountInString(text) > MaxCommandLen
}

// ParsePlay reads the /play arguments in any order: a level, a game (a
// preset or WxH with an optional kK), who moves first, and "exact" for
// exact-K rules or "renju" for renju on a board with K = 5 (the renju
// preset is 15×15). Two words of one kind (two levels, two boards…) are
// refused with both named, as are renju beside exact and renju with
// another K than five.
func ParsePlay(args []string) (PlayArgs, error) {
	p := DefaultPlay()
	k := 0
	// The word of each kind given so far, as typed.
	var words [wordKinds]string
	for _, arg := range args {
		kind, ok := readWord(strings.ToLower(arg), &p, &k)
		if !ok {
			return p, &CommandError{Key: render.MsgBadArgument, Arg: arg}
		}
		if err := again(words[kind], arg, conflicts[kind]); err != nil {
			return p, err
		}
		words[kind] = arg
	}
	renju := words[wordRenju]
	if renju != "" && words[wordBoard] == "" {
		p.Rules, _ = engine.Preset("renju")
	}
	if words[wordK] != "" {
		p.Rules.K = k
	}
	p.Rules.Exact = words[wordExact] != ""
	p.Rules.Renju = renju != ""
	if err := renjuConflict(p.Rules, words); err != nil {
		return p, err
	}
	if err := p.Rules.Validate(); err != nil {
		return p, &CommandError{Key: render.MsgBadRules, Arg: p.Rules.String()}
	}
	return p, nil
}

// The kinds of /play words.
const (
	wordLevel = iota
	wordBoard
	wordK
	wordSide
	wordExact
	wordRenju
	wordKinds
)

// conflicts are the refusals of two words of one kind; a kind without
// one is refused as a word given twice.
var conflicts = [wordKinds]render.Key{
	wordLevel: render.MsgPlayTwoLevels, wordBoard: render.MsgPlayTwoBoards, wordK: render.MsgPlayTwoK, wordSide: render.MsgPlayTwoSides,
}

// readWord reads the /play word a (in lower case) into p, or into k for
// a K: it returns the word's kind, and false for a word /play does not
// know.
func readWord(a string, p *PlayArgs, k *int) (int, bool) {
	if l, err := engine.ParseLevel(a); err == nil {
		p.Level = l
		return wordLevel, true
	}
	if r, ok := engine.Preset(a); ok && a != "renju" {
		p.Rules = r
		return wordBoard, true
	}
	if w, h, ok := parseSize(a); ok {
		p.Rules = engine.Rules{Width: w, Height: h, K: min(5, w, h)}
		return wordBoard, true
	}
	if n, ok := parseK(a); ok {
		*k = n
		return wordK, true
	}
	if s, ok := sides[a]; ok {
		p.Side = s
		return wordSide, true
	}
	switch a {
	case "exact":
		return wordExact, true
	case "renju":
		// The rule word, and with no board the renju preset.
		return wordRenju, true
	}
	return 0, false
}

// sides maps the words of who moves first to their sides.
var sides = map[string]session.Side{"first": session.First, "second": session.Second, "random": session.RandomSide}

// again returns the refusal of word arg when a word of its kind, first,
// came already: the same word given twice, or two of a kind that take
// one, refused with conflict.
func again(first, arg string, conflict render.Key) error {
	switch {
	case first == "":
		return nil
	case strings.EqualFold(first, arg) || conflict == "":
		return &CommandError{Key: render.MsgPlayTwice, Arg: arg}
	}
	return &CommandError{Key: conflict, Arg: arg, Other: first}
}

// renjuConflict returns the refusal of rules r, read from words, when
// renju was asked with what renju cannot be: exact, or another K than
// five, from a kN word or else from the board.
func renjuConflict(r engine.Rules, words [wordKinds]string) error {
	switch {
	case words[wordRenju] == "" || (!r.Exact && r.K == 5):
		return nil
	case r.Exact:
		return &CommandError{Key: render.MsgRenjuExact, Arg: words[wordExact], Other: words[wordRenju]}
	case words[wordK] != "":
		return &CommandError{Key: render.MsgRenjuFive, Arg: words[wordK]}
	}
	return &CommandError{Key: render.MsgRenjuFive, Arg: words[wordBoard]}
}

// parseDuel reads the /duel arguments: an optional @username first, then
// the game options of /play and the challenger's colour, in any order. A
// level is refused: people play duels. A first word that is no option is
// taken for a display name, which identifies nobody, and refused with
// render.MsgDuelByName. Other refusals give /duel's own examples.
func parseDuel(args []string) (DuelArgs, error) {
	d := DefaultDuel()
	if len(args) > 0 && strings.HasPrefix(args[0], "@") {
		name := args[0][1:]
		if !validUsername(name) {
			return d, &CommandError{Key: render.MsgBadDuelArgument, Arg: args[0]}
		}
		d.Opponent, args = name, args[1:]
	} else if len(args) > 0 {
		var ce *CommandError
		_, err := ParsePlay(args[:1])
		if _, lerr := engine.ParseLevel(strings.ToLower(args[0])); lerr != nil && errors.As(err, &ce) && ce.Key == render.MsgBadArgument {
			return d, &CommandError{Key: render.MsgDuelByName, Arg: args[0]}
		}
	}
	for _, arg := range args {
		if _, err := engine.ParseLevel(strings.ToLower(arg)); err == nil {
			return d, &CommandError{Key: render.MsgDuelLevel, Arg: arg}
		}
		if strings.HasPrefix(arg, "@") {
			return d, &CommandError{Key: render.MsgBadDuelArgument, Arg: arg}
		}
	}
	p, err := ParsePlay(args)
	var ce *CommandError
	if errors.As(err, &ce) {
		key := map[render.Key]render.Key{render.MsgBadArgument: render.MsgBadDuelArgument, render.MsgBadRules: render.MsgBadDuelRules}[ce.Key]
		if key != "" {
			err = &CommandError{Key: key, Arg: ce.Arg}
		}
	}
	d.Rules = p.Rules
	side := false
	for _, arg := range args {
		_, isSide := sides[strings.ToLower(arg)]
		side = side || isSide
	}
	if side {
		d.Side = p.Side
	}
	return d, err
}

// validUsername reports whether s looks like a platform username: 1 to 32
// letters, digits, '_', '.' or '-'.
func validUsername(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// parseSize reads "WxH" (or "W×H").
func parseSize(s string) (w, h int, ok bool) {
	a, b, found := strings.Cut(strings.ReplaceAll(s, "×", "x"), "x")
	if !found {
		return 0, 0, false
	}
	w, okW := parseSmall(a)
	h, okH := parseSmall(b)
	return w, h, okW && okH
}

// parseK reads "kN".
func parseK(s string) (int, bool) {
	if !strings.HasPrefix(s, "k") {
		return 0, false
	}
	return parseSmall(s[1:])
}

// parseSmall reads a canonical decimal of one or two digits.
func parseSmall(s string) (int, bool) {
	if len(s) == 0 || len(s) > 2 || (s[0] == '0') || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
