package console

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestResignGoesToTheOneRunningGame checks, in a terminal, that /resign
// after a withdrawn challenge resigns the one game running rather than
// asking which, whose answer then only showed the board.
func TestResignGoesToTheOneRunningGame(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/play easy\n/duel\n/cancel\n/resign\n")
	if !strings.Contains(out, "❌ you resigned. Winner: ⭕ AI (easy).") || strings.Contains(out, "Which game") {
		t.Errorf("/resign with one game running:\n%s", out)
	}
}

// TestWhichGameAnswerTakesTheAction checks, in a terminal, that the
// number typed to answer which game a /resign is for resigns that game,
// and that /games then lists the game left, whose number shows it.
func TestWhichGameAnswerTakesTheAction(t *testing.T) {
	script := strings.Join([]string{
		"/play easy", "/duel @bob first", "/as bob", "/accept", "/as", "b2", "/as bob", "a1", "/as",
		"/duel", "/cancel", "/resign", "2", "/games", "1",
	}, "\n") + "\n"
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), script)
	for _, want := range []string{
		"Which game do you resign?\n[ 1] ❌ you  vs  ⭕ AI (easy) · Tic-tac-toe\n[ 2] ❌ you  vs  ⭕ bob · Tic-tac-toe\n",
		"❌ you resigned. Winner: ⭕ bob.",
		"Your running games here; tap one to show it:\n[ 1] ❌ you  vs  ⭕ AI (easy) · Tic-tac-toe\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "AI (easy).") || strings.Count(out, "⭕ AI (easy) · Tic-tac-toe") < 3 {
		t.Errorf("the game against the AI should run on, and be shown by /games")
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}

// TestAsRefusesTheAIsName checks that /as will not make the terminal's
// user the AI, under any of its names, while other names still do.
func TestAsRefusesTheAIsName(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), "/as AI\n/as ai(hard)\n/as ＡＩ\n/as AI（简单）\n/as Aida\n/as\n/lang zh\n/as Ai\n")
	// Full-width input is folded as it is typed: ＡＩ is AI.
	for _, name := range []string{"AI", "ai(hard)", "AI(简单)"} {
		if want := `"` + name + `" is the AI's name: pick another, like /as bob.`; !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.Contains(out, `"Ai" 是 AI 的名字：请换一个，如 /as bob。`) {
		t.Errorf("no refusal in Chinese")
	}
	if strings.Contains(out, "You are now AI") || strings.Contains(out, "You are now ai") || strings.Contains(out, "You are now ＡＩ") || !strings.Contains(out, "You are now Aida.") {
		t.Errorf("/as switched wrongly")
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}
