package adapters

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

func TestParsePlay(t *testing.T) {
	gomoku, _ := engine.Preset("gomoku")
	tests := []struct {
		in   string
		want PlayArgs
	}{
		{"/play", DefaultPlay()},
		{"/play hard", PlayArgs{engine.Hard, engine.TicTacToe(), session.First}},
		{"/play second gomoku hard", PlayArgs{engine.Hard, gomoku, session.Second}},
		{"/PLAY Easy 7x6 K4 random", PlayArgs{engine.Easy, engine.Rules{Width: 7, Height: 6, K: 4}, session.RandomSide}},
		{"/play 9x9", PlayArgs{engine.Medium, engine.Rules{Width: 9, Height: 9, K: 5}, session.First}},
		{"/play 4x3", PlayArgs{engine.Medium, engine.Rules{Width: 4, Height: 3, K: 3}, session.First}},
		{"/play gomoku exact", PlayArgs{engine.Medium, engine.Rules{Width: 15, Height: 15, K: 5, Exact: true}, session.First}},
		{"/play@BoardBot hard", PlayArgs{engine.Hard, engine.TicTacToe(), session.First}},
		{"/play@boardbot   hard  ", PlayArgs{engine.Hard, engine.TicTacToe(), session.First}},
		{"/play renju hard", PlayArgs{engine.Hard, engine.Rules{Width: 15, Height: 15, K: 5, Renju: true}, session.First}},
		{"/play Renju gomoku19 second", PlayArgs{engine.Medium, engine.Rules{Width: 19, Height: 19, K: 5, Renju: true}, session.Second}},
		{"/play 9x9 renju", PlayArgs{engine.Medium, engine.Rules{Width: 9, Height: 9, K: 5, Renju: true}, session.First}},
		{"/play 12x10 k5 renju", PlayArgs{engine.Medium, engine.Rules{Width: 12, Height: 10, K: 5, Renju: true}, session.First}},
	}
	for _, tt := range tests {
		cmd, err := ParseCommand(tt.in, "BoardBot")
		if err != nil || cmd.Name != CmdPlay || cmd.Play != tt.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", tt.in, cmd.Play, err, tt.want)
		}
	}
}

func TestParseCommandRefusals(t *testing.T) {
	tests := []struct {
		in   string
		key  render.Key
		want error
	}{
		{"/dance", render.MsgUnknownCommand, nil},
		{"/play hard easy", render.MsgPlayTwoLevels, nil},
		{"/play ttt gomoku", render.MsgPlayTwoBoards, nil},
		{"/play purple", render.MsgBadArgument, nil},
		{"/play 25x25", render.MsgBadRules, nil},
		{"/play 2x2", render.MsgBadRules, nil},
		{"/play 5x5 k6", render.MsgBadRules, nil},
		{"/play k2", render.MsgBadRules, nil},
		{"/play 07x7", render.MsgBadArgument, nil},
		{"/play renju exact", render.MsgRenjuExact, nil},
		{"/play gomoku exact renju", render.MsgRenjuExact, nil},
		{"/play 9x9 k4 renju", render.MsgRenjuFive, nil},
		{"/play ttt renju", render.MsgRenjuFive, nil},
		{"/play renju renju", render.MsgPlayTwice, nil},
		{"/duel renju exact", render.MsgRenjuExact, nil},
		{"/resign now", render.MsgNoArguments, nil},
		{"/play " + strings.Repeat("hard ", 50), render.MsgTooLong, nil},
		{strings.Repeat("chatter ", 50), "", ErrNotCommand},
		{"hello", "", ErrNotCommand},
		{"", "", ErrNotCommand},
		{"/play@OtherBot hard", "", ErrOtherBot},
	}
	for _, tt := range tests {
		_, err := ParseCommand(tt.in, "BoardBot")
		if tt.want != nil {
			if !errors.Is(err, tt.want) {
				t.Errorf("ParseCommand(%q) = %v, want %v", tt.in, err, tt.want)
			}
			continue
		}
		var ce *CommandError
		if !errors.As(err, &ce) || ce.Key != tt.key {
			t.Errorf("ParseCommand(%q) = %v, want %s", tt.in, err, tt.key)
			continue
		}
		// Every refusal explains itself in one line with an example.
		for _, l := range render.Langs {
			msg := render.ErrorText(l, err)
			if strings.Contains(msg, "\n") || msg == render.T(l, render.MsgInternal) {
				t.Errorf("ParseCommand(%q) message in %s: %q", tt.in, l, msg)
			}
		}
	}
}

func TestTooLongCommandSaysTheLimit(t *testing.T) {
	_, err := ParseCommand("/play "+strings.Repeat("x", MaxCommandLen), "")
	for _, l := range render.Langs {
		if msg := render.ErrorText(l, err); !strings.Contains(msg, "200") {
			t.Errorf("in %s: %q does not give the limit", l, msg)
		}
	}
}

// TestConflictingPlayWordsSayWhatConflicts checks that /play (and /duel)
// words that cannot go together are refused with what conflicts, in the
// user's language, rather than "I don't understand".
func TestConflictingPlayWordsSayWhatConflicts(t *testing.T) {
	for in, want := range map[string]map[render.Lang]string{
		"/play easy hard":       {render.English: "easy and hard are both levels: pick one.", render.Chinese: "easy 和 hard 都是难度：请只选一个。"},
		"/play first second":    {render.English: "first and second both say who moves first: pick one.", render.Chinese: "first 和 second 都是先后手：请只选一个。"},
		"/duel random first":    {render.English: "random and first both say who moves first: pick one.", render.Chinese: "random 和 first 都是先后手：请只选一个。"},
		"/play ttt 7x7":         {render.English: "ttt and 7x7 are both boards: pick one.", render.Chinese: "ttt 和 7x7 都是棋盘：请只选一个。"},
		"/play 9x9 k4 k5":       {render.English: "k4 and k5 both say how many in a row win: pick one.", render.Chinese: "k4 和 k5 都是连成几子获胜：请只选一个。"},
		"/play hard HARD":       {render.English: `"HARD" is given twice.`, render.Chinese: `"HARD" 重复了。`},
		"/play renju exact":     {render.English: "renju and exact are different rules: pick one.", render.Chinese: "renju 和 exact 是不同的规则：请只选一个。"},
		"/play ttt renju":       {render.English: "renju is five in a row, so it does not go with ttt.", render.Chinese: "连珠是五子连珠，不能与 ttt 同用。"},
		"/play 7x7 k4 renju":    {render.English: "renju is five in a row, so it does not go with k4.", render.Chinese: "连珠是五子连珠，不能与 k4 同用。"},
		"/play renju 4x4":       {render.English: "renju is five in a row, so it does not go with 4x4.", render.Chinese: "连珠是五子连珠，不能与 4x4 同用。"},
		"/duel @bob ttt renju":  {render.English: "renju is five in a row, so it does not go with ttt.", render.Chinese: "连珠是五子连珠，不能与 ttt 同用。"},
		"/play gomoku19 gomoku": {render.English: "gomoku19 and gomoku are both boards: pick one.", render.Chinese: "gomoku19 和 gomoku 都是棋盘：请只选一个。"},
	} {
		_, err := ParseCommand(in, "")
		if err == nil {
			t.Errorf("ParseCommand(%q) accepted", in)
			continue
		}
		for l, w := range want {
			if got := render.ErrorText(l, err); got != w {
				t.Errorf("%q in %s: %q, want %q", in, l, got, w)
			}
		}
	}
	// What goes together still does.
	for _, in := range []string{"/play gomoku renju", "/play 9x9 renju hard second", "/play 7x7 k4 exact", "/duel renju first"} {
		if _, err := ParseCommand(in, ""); err != nil {
			t.Errorf("ParseCommand(%q) = %v", in, err)
		}
	}
}

// TestCommandLimitCountsCharacters checks that the command length limit
// counts characters, as its message says, not bytes: 70 Chinese
// characters are well within it, and the limit still bounds the bytes.
func TestCommandLimitCountsCharacters(t *testing.T) {
	var ce *CommandError
	_, err := ParseCommand("/play "+strings.Repeat("五", 70), "")
	if !errors.As(err, &ce) || ce.Key != render.MsgBadArgument {
		t.Errorf("70 Chinese characters: %v, want them read (and not understood)", err)
	}
	exactly := "/play " + strings.Repeat("𝕏", MaxCommandLen-len("/play "))
	if _, err := ParseCommand(exactly, ""); !errors.As(err, &ce) || ce.Key != render.MsgBadArgument {
		t.Errorf("%d characters of %d bytes: %v, want them read", MaxCommandLen, len(exactly), err)
	}
	for _, in := range []string{exactly + "x", "/play " + strings.Repeat("x", MaxCommandLen)} {
		if _, err := ParseCommand(in, ""); !errors.As(err, &ce) || ce.Key != render.MsgTooLong {
			t.Errorf("%d characters: %v, want %s", len([]rune(in)), err, render.MsgTooLong)
		}
	}
}

// TestFoldWidth checks that full-width forms, as Chinese input methods
// type them, become the ASCII the grammar reads, and nothing else changes.
func TestFoldWidth(t *testing.T) {
	for in, want := range map[string]string{
		"／ｐｌａｙ　ｈａｒｄ":   "/play hard",
		"ｂ２":           "b2",
		"／ＰＬＡＹ　７ｘ７　ｋ４": "/PLAY 7x7 k4",
		"！～":           "!~",
		"/play 五子棋 ×":  "/play 五子棋 ×",
		"":             "",
	} {
		if got := FoldWidth(in); got != want {
			t.Errorf("FoldWidth(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"/play hard gomoku second", "/play 7x6 k4", "/play@x", "/resign", "/play 19x19 k5 exact random", "/ play", "/play ×",
		"/duel @bob gomoku first", "/duel 9x9 k5 random", "/top hard", "/lang zh", "/accept"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmd, err := ParseCommand(s, "bot")
		if err != nil {
			var ce *CommandError
			if !errors.As(err, &ce) && !errors.Is(err, ErrNotCommand) && !errors.Is(err, ErrOtherBot) {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			return
		}
		if cmd.Name == CmdPlay {
			if err := cmd.Play.Rules.Validate(); err != nil || !cmd.Play.Level.Valid() {
				t.Fatalf("%q parsed to invalid %+v", s, cmd.Play)
			}
		}
		if cmd.Name == CmdDuel {
			if err := cmd.Duel.Rules.Validate(); err != nil || cmd.Duel.Side > session.RandomSide || strings.ContainsAny(cmd.Duel.Opponent, "@ ") {
				t.Fatalf("%q parsed to invalid %+v", s, cmd.Duel)
			}
		}
	})
}

func TestParseDuelAndFriends(t *testing.T) {
	gomoku, _ := engine.Preset("gomoku")
	duels := []struct {
		in   string
		want DuelArgs
	}{
		{"/duel", DefaultDuel()},
		{"/duel @bob", DuelArgs{Opponent: "bob", Rules: engine.TicTacToe(), Side: session.RandomSide}},
		{"/duel @Bob_1 gomoku second", DuelArgs{Opponent: "Bob_1", Rules: gomoku, Side: session.Second}},
		{"/duel 7x6 k4 first", DuelArgs{Rules: engine.Rules{Width: 7, Height: 6, K: 4}, Side: session.First}},
		{"/duel@BoardBot random", DuelArgs{Rules: engine.TicTacToe(), Side: session.RandomSide}},
	}
	for _, tt := range duels {
		cmd, err := ParseCommand(tt.in, "BoardBot")
		if err != nil || cmd.Name != CmdDuel || cmd.Duel != tt.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", tt.in, cmd.Duel, err, tt.want)
		}
	}
	for in, want := range map[string]Command{
		"/accept":   {Name: CmdAccept},
		"/DECLINE":  {Name: CmdDecline},
		"/cancel":   {Name: CmdCancel},
		"/rematch":  {Name: CmdRematch},
		"/stats":    {Name: CmdStats},
		"/top":      {Name: CmdTop, Board: session.ByRating},
		"/top HARD": {Name: CmdTop, Board: session.ByHardWins},
		"/lang zh":  {Name: CmdLang, Lang: "zh"},
		"/lang EN":  {Name: CmdLang, Lang: "en"},
	} {
		cmd, err := ParseCommand(in, "")
		if err != nil || cmd != want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", in, cmd, err, want)
		}
	}
	for in, key := range map[string]render.Key{
		"/duel hard":                        render.MsgDuelLevel,
		"/duel gomoku @bob":                 render.MsgBadDuelArgument,
		"/duel @":                           render.MsgBadDuelArgument,
		"/duel @a b":                        render.MsgBadDuelArgument,
		"/duel @bob @carol":                 render.MsgBadDuelArgument,
		"/duel 2x2":                         render.MsgBadDuelRules,
		"/duel alice":                       render.MsgDuelByName,
		"/duel Alice Smith 7x7":             render.MsgDuelByName,
		"/duel 7x7 alice":                   render.MsgBadDuelArgument,
		"/duel first second":                render.MsgPlayTwoSides,
		"/accept 3":                         render.MsgNoArguments,
		"/top easy":                         render.MsgBadTopArgument,
		"/top hard hard":                    render.MsgBadTopArgument,
		"/lang":                             render.MsgBadLang,
		"/lang fr":                          render.MsgBadLang,
		"/lang en zh":                       render.MsgBadLang,
		"/duel @" + strings.Repeat("x", 33): render.MsgBadDuelArgument,
	} {
		_, err := ParseCommand(in, "")
		var ce *CommandError
		if !errors.As(err, &ce) || ce.Key != key {
			t.Errorf("ParseCommand(%q) = %v, want %s", in, err, key)
			continue
		}
		for _, l := range render.Langs {
			if msg := render.ErrorText(l, err); strings.Contains(msg, "%!") || msg == render.T(l, render.MsgInternal) {
				t.Errorf("ParseCommand(%q) message in %s: %q", in, l, msg)
			}
		}
	}
}

// TestRefusalsShowTheirOwnCommand checks that a refused command is
// answered with that command's usage, never with an example of another
// command, and that /duel never suggests a level it refuses.
func TestRefusalsShowTheirOwnCommand(t *testing.T) {
	for in, want := range map[string]string{
		"/stats me":     "/stats",
		"/top foo":      "/top",
		"/top easy":     "/top",
		"/duel hard":    "/duel",
		"/duel purple":  "/duel",
		"/duel 25x25":   "/duel",
		"/resign now":   "/resign",
		"/accept 3":     "/accept",
		"/rematch 2":    "/rematch",
		"/play purple":  "/play",
		"/help me":      "/help",
		"/start please": "/start",
	} {
		_, err := ParseCommand(in, "")
		if err == nil {
			t.Errorf("ParseCommand(%q) accepted", in)
			continue
		}
		for _, l := range render.Langs {
			msg := render.ErrorText(l, err)
			if !strings.Contains(msg, want) || (want != "/play" && strings.Contains(msg, "/play")) {
				t.Errorf("%q in %s: %q should show %s only", in, l, msg, want)
			}
			if strings.HasPrefix(in, "/duel") && (strings.Contains(msg, "hard ") || strings.Contains(msg, "easy") || strings.Contains(msg, "medium")) {
				t.Errorf("%q in %s: %q suggests a level", in, l, msg)
			}
		}
	}
}
