package console

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// run plays a script on a console over the bbolt file at path and returns
// what it printed.
func run(t *testing.T, path, script string) string {
	t.Helper()
	return runWith(t, path, script, nil)
}

// runWith is run on a service whose clock is now (nil: the real one).
func runWith(t *testing.T, path, script string, now func() time.Time) string {
	t.Helper()
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seed := uint64(0)
	svc := session.New(st, &session.Config{Now: now, NewSeed: func() uint64 { seed++; return seed }})
	d := adapters.NewDispatcher(svc, Platform, "", nil)
	var out strings.Builder
	c := New(d, strings.NewReader(script), &out, session.User{ID: "local", Name: "you"}, "en")
	c.SetReplayDir(filepath.Dir(path))
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestScriptedGameToTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	// Tapping every button number in turn finishes any 3×3 game: taken
	// cells are refused, and once the game ends every tap is.
	script := "/play hard\n" + strings.Repeat("1\n2\n3\n4\n5\n6\n7\n8\n9\n", 2)
	out := run(t, path, script)
	if !strings.Contains(out, "Winner: ⭕ AI (hard), with three in a row.") && !strings.Contains(out, "Draw: the board is full.") {
		t.Fatalf("no result in output:\n%s", out)
	}
	if strings.Contains(out, "Winner: ❌ you") {
		t.Fatalf("hard lost at tic-tac-toe:\n%s", out)
	}
	last := out[strings.LastIndex(out, "❌ you  vs"):]
	if strings.Count(last, "[") != 3 || !strings.Contains(last, "▶️ [11] 📋 [12] 🔁 Rematch") {
		t.Errorf("a finished board should have the replay, export and Rematch buttons and no other:\n%s", last)
	}
}

func TestResumeAfterRestartAndTypedMoves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, path, "/play easy second\nb2\n")
	if !strings.Contains(out, "❌ AI (easy)  vs  ⭕ you · Tic-tac-toe") {
		t.Fatalf("the AI should play black:\n%s", out)
	}
	// The process ends mid-game; a new one finds the game where it was:
	// three stones on the board, the player to move.
	out = run(t, path, "")
	if !strings.Contains(out, "⭕ you to move") {
		t.Fatalf("game not resumed:\n%s", out)
	}
	board := out[strings.Index(out, "· Tic-tac-toe\n")+len("· Tic-tac-toe\n") : strings.Index(out, "⭕ you to move")]
	if n := strings.Count(board, "❌") + strings.Count(board, "⭕") + strings.Count(board, "✖️") + strings.Count(board, "🅾"); n != 3 {
		t.Fatalf("resumed board has %d stones, want 3:\n%s", n, board)
	}
	// Another /play returns the same game rather than a second one.
	out = run(t, path, "/play hard\n")
	if !strings.Contains(out, "already have a game") || strings.Contains(out, "AI (hard)") {
		t.Fatalf("/play during a game:\n%s", out)
	}
}

func TestBadInputGetsShortAnswers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, path, "/dance\n/play 25x25\n/play easy easy\n42\n/resign\n/play\nz9\n")
	for _, want := range []string{
		"Unknown command /dance",
		"Boards go from 3x3 to 19x19",
		`"easy" is given twice.`,
		"There are no buttons to type now.",
		"You have no game here.",
		`"z9" is not a cell of this board.`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestArrowsMoveTheWindowOfALargeBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	// gomoku is wider than the 8 buttons of a row: the window of 8×11
	// starts around the centre, columns d to k; ➡️ (button 92) moves it
	// to the right edge, where button 88, the window's bottom-right cell,
	// is o3.
	out := run(t, path, "/keys\n/play gomoku\n92\n88\n")
	boards := strings.Split(out, "⚫ you  vs")
	if len(boards) != 4 {
		t.Fatalf("%d boards shown:\n%s", len(boards)-1, out)
	}
	if !strings.Contains(boards[1], "[92] ➡️") || !strings.Contains(boards[1], "[89] ⬅️") {
		t.Errorf("first window should move both ways:\n%s", boards[1])
	}
	if !strings.Contains(boards[2], "[89] ⬅️") || strings.Contains(boards[2], "[92] ➡️") {
		t.Errorf("window at the right edge:\n%s", boards[2])
	}
	if !strings.Contains(boards[3], "▪️3️⃣"+strings.Repeat("🟫", 14)+"⚫\n") {
		t.Errorf("button 88 did not place at o3:\n%s", boards[3])
	}
}

// TestRefusedCommandsShowTheirOwnUsage checks, in a terminal session, that
// each refused command is answered with its own usage rather than an
// example of /play.
func TestRefusedCommandsShowTheirOwnUsage(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/stats me\n/top foo\n/top easy\n/as a b\n/duel hard\n")
	for _, want := range []string{
		`I don't understand "me": nothing goes after /stats.`,
		`I don't understand "foo". Try /top, or /top hard`,
		`I don't understand "easy". Try /top, or /top hard`,
		`I don't understand "a b". Example: /as bob`,
		`A duel is between people, so it takes no level like "hard". Example: /duel @friend gomoku`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "/play hard gomoku second") {
		t.Errorf("a refusal suggests /play:\n%s", out)
	}
}

// TestTakenCellAndFinishedGameSayWhy checks that typing the number of a
// taken cell, or of a cell or a cell's name once the game is over, prints
// why nothing was placed.
func TestTakenCellAndFinishedGameSayWhy(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/play easy\n5\n5\n/resign\n1\nb2\n")
	for _, want := range []string{"> That cell is taken.\n", "> This game is over.\n", "> That game is over; /rematch or /play.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A refusal is a line like every other answer, whatever refused.
	if regexp.MustCompile(`(?m)^(> )?! `).MatchString(out) {
		t.Errorf("a refusal marked with \"!\":\n%s", out)
	}
}

// TestNumbersOfNoButtonSayWhichExist checks that a typed number that is no
// button on screen says so and which numbers are, whatever its size.
func TestNumbersOfNoButtonSayWhichExist(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/play\n0\n-1\n11\n999\n12345678901234567890\n")
	for _, want := range []string{
		"> No button 0 — type one of 1–10.\n",
		"> No button -1 — type one of 1–10.\n",
		"> No button 11 — type one of 1–10.\n",
		"> No button 999 — type one of 1–10.\n",
		"> No button 123456789012… — type one of 1–10.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "doesn't work any more") || strings.Contains(out, "/play [easy") {
		t.Errorf("a number got the wrong answer:\n%s", out)
	}
}

// TestWindowStaysWhereItIsUnlessTheAIsReplyIsOutside checks that on a
// board wider than the keyboard the numbered window stays put from move
// to move, by tapped number or typed coordinate, and says which cells it
// holds; it moves only when the AI's reply falls outside it.
func TestWindowStaysWhereItIsUnlessTheAIsReplyIsOutside(t *testing.T) {
	// Button 1 is d13, the window's top-left cell; the AI answers e13,
	// then g10 gets g11: both inside the window, which stays.
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/keys\n/play gomoku\n1\ng10\n")
	for _, want := range []string{
		"⚫ you to move\nThe buttons are columns d–k, rows 3–13.\n[ 1] [ 2]",
		"Last move: ⚪ e13\nThe buttons are columns d–k, rows 3–13.\n ⚫ ",
		"Last move: ⚪ g11\nThe buttons are columns d–k, rows 3–13.\n ⚫ ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// After e12 the AI answers d14, above the window: it moves there.
	out = run(t, filepath.Join(t.TempDir(), "bot.db"), "/keys\n/play gomoku\n1\ne12\n")
	if !strings.Contains(out, "Last move: ⚪ d14\nThe buttons are columns a–h, rows 5–15.\n") {
		t.Errorf("the window did not move to the AI's reply outside it:\n%s", out)
	}
}

func TestLangSettingHoldsForEveryTerminalText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	run(t, path, "/lang zh\n")
	// A new process: the greeting, the help for text it cannot place,
	// a button that is not there, /as and a line too long all answer in
	// the language set before the restart.
	out := run(t, path, "/play\nhello\n42\n"+strings.Repeat("x", 5000)+"\n/as a b\n/as bob\n")
	zh := func(k render.Key, args ...any) string { return render.T(render.Chinese, k, args...) }
	for _, want := range []string{
		zh(render.MsgWelcome),
		zh(render.MsgHelp),
		zh(render.MsgNoButton, "42", 10),
		zh(render.MsgBadAs, "a b"),
		zh(render.MsgNowPlaying, "bob"),
		zh(render.MsgTooLong, "200"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// No refusal of the terminal is in English.
	for _, english := range []string{render.T(render.English, render.MsgHelp), render.T(render.English, render.MsgNoButton, "42", 10), render.T(render.English, render.MsgBadAs, "a b"), render.T(render.English, render.MsgTooLong, "200")} {
		if strings.Contains(out, english) {
			t.Errorf("output has the English %q", english)
		}
	}
}

func TestHelpSaysWhatTheReadmeSays(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	section = section[strings.Index(section, "## Playing in the terminal"):]
	section = section[:strings.Index(section, "\n## ")]
	// Every command the README gives the terminal, and every word of the
	// options it lists in brackets (not the placeholders).
	var want []string
	for _, code := range regexp.MustCompile("`(/[^`]*)`").FindAllStringSubmatch(section, -1) {
		words := regexp.MustCompile(`/[a-z]+`).FindAllString(code[1], -1)
		if strings.Contains(code[1], "[") {
			words = append(words, regexp.MustCompile(`\b[a-z0-9]+\b`).FindAllString(code[1], -1)...)
		}
		for _, w := range words {
			if !slices.Contains(want, w) && w != "user" && w != "game" {
				want = append(want, w)
			}
		}
	}
	if len(want) < 20 {
		t.Fatalf("found only %v in the README", want)
	}
	for _, l := range []string{"en", "zh"} {
		out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/lang "+l+"\n/help\n")
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("/help in %s lacks %q, which the README gives:\n%s", l, w, out)
			}
		}
	}
}

// TestChatLangInTheTerminal checks that the terminal's user may set the
// terminal's language with /chatlang, that it answers a user of /as with
// no /lang of their own, and that it outlives a restart.
func TestChatLangInTheTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, path, "/chatlang zh\n/as bo\n/help\n")
	for _, want := range []string{render.T(render.Chinese, render.MsgChatLangSet, "中文"), render.T(render.Chinese, render.MsgHelpChatLang)} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	out = run(t, path, "/chatlang auto\n/help\n")
	if !strings.HasPrefix(out, render.T(render.Chinese, render.MsgWelcome)) || !strings.Contains(out, render.T(render.English, render.MsgHelpChatLang)) {
		t.Errorf("after a restart and /chatlang auto:\n%s", out)
	}
}

// TestBigBoardTakesTypedCells plays 15×15 in the terminal: the board is
// shown whole with its controls only and a line saying to type cells, in
// under 25 lines a move where the numbered window took about 35; /keys
// numbers the cells and /keys again stops.
func TestBigBoardTakesTypedCells(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/play gomoku first\nh8\n/keys\n/keys\n")
	boards := strings.Split(out, "⚫ you  vs")[1:]
	if len(boards) != 4 {
		t.Fatalf("%d boards shown, want 4 (/play, h8, /keys twice):\n%s", len(boards), out)
	}
	typeCell := render.T(render.English, render.MsgTypeCell, "h8")
	for i, b := range []string{boards[0], boards[1], boards[3]} {
		if n := strings.Count(b, "\n"); n > 25 {
			t.Errorf("board %d takes %d lines", i, n)
		}
		if !strings.Contains(b, "[ 1] 🏳 Resign") || strings.Contains(b, "[ 2] [ 3]") || strings.Contains(b, "The buttons are columns") || !strings.Contains(b, typeCell) {
			t.Errorf("board %d is not shown with its controls only:\n%s", i, b)
		}
	}
	if !strings.Contains(boards[1], "Last move: ⚪") || !strings.Contains(boards[1], "⚫") {
		t.Errorf("typed h8 did not play:\n%s", boards[1])
	}
	if !strings.Contains(boards[2], "The buttons are columns") || !strings.Contains(boards[2], "[ 1] [ 2]") || strings.Contains(boards[2], typeCell) {
		t.Errorf("/keys does not number the cells:\n%s", boards[2])
	}
	for _, k := range []render.Key{render.MsgKeysOn, render.MsgKeysOff} {
		if !strings.Contains(out, render.T(render.English, k)) {
			t.Errorf("/keys did not say %q", render.T(render.English, k))
		}
	}
}

// TestIdleButtonSaysSo types the number of an arrow with nowhere to go
// (the window at the board's right edge): the terminal says the button
// does nothing now, where it said nothing.
func TestIdleButtonSaysSo(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/keys\n/play gomoku\n92\n92\n")
	if !strings.Contains(out, "> "+render.T(render.English, render.MsgButtonIdle, 92)+"\n") {
		t.Errorf("no answer to the idle arrow:\n%s", out)
	}
}

// TestUnnamedUserIsYouInTheirLanguage runs the terminal for a user the
// system gives no name ($USER unset): in Chinese they are 你 on the
// board and in /stats, and "you" once they switch to English.
func TestUnnamedUserIsYouInTheirLanguage(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := session.New(st, &session.Config{NewSeed: func() uint64 { return 1 }})
	var out strings.Builder
	c := New(adapters.NewDispatcher(svc, Platform, "", nil), strings.NewReader("/play\n/resign\n/stats\n/lang en\n/play\n"), &out, session.User{ID: "local"}, "zh-CN")
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	zh, en, _ := strings.Cut(out.String(), render.T(render.English, render.MsgLangSet))
	for _, want := range []string{"❌ 你  对  ⭕", "你 认输了"} {
		if !strings.Contains(zh, want) {
			t.Errorf("the Chinese part lacks %q:\n%s", want, zh)
		}
	}
	if strings.Contains(zh, "you") {
		t.Errorf("the Chinese part calls the user \"you\":\n%s", zh)
	}
	if !strings.Contains(en, "❌ you  vs  ⭕") {
		t.Errorf("after /lang en the user is not \"you\":\n%s", en)
	}
}

// TestFullWidthNumbersAndCommands types as a Chinese input method does:
// "／ｋｅｙｓ" is /keys, "５" is button 5, "／ｑｕｉｔ" quits.
func TestFullWidthNumbersAndCommands(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "／ｋｅｙｓ\n/play easy\n５\n／ｑｕｉｔ\n/play\n")
	if !strings.Contains(out, render.T(render.English, render.MsgKeysOn)) {
		t.Errorf("／ｋｅｙｓ was not /keys:\n%s", out)
	}
	if !strings.Contains(out, "2️⃣⬜❌⬜") {
		t.Errorf("５ did not tap button 5 (b2):\n%s", out)
	}
	if strings.Count(out, "❌ you  vs") != 2 {
		t.Errorf("want the board shown twice (/play, ５) and nothing after ／ｑｕｉｔ:\n%s", out)
	}
}
