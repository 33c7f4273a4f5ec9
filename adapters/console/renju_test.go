package console

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
)

// TestRenjuForbiddenPointInTheTerminal plays a renju duel in the terminal
// up to a double three for Black, which the board marks ⛔ and which is
// refused, typed or by its button, in English and in Chinese, changing nothing;
// then /play renju exact is refused with what conflicts, and the rematch
// is renju again.
func TestRenjuForbiddenPointInTheTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	r, _ := engine.Preset("renju")
	at := func(x, y int) string { return render.FormatCoord(engine.Point{X: x, Y: y}, r) }
	foul := at(7, 7)
	script := strings.Join([]string{
		"/keys", "/as alice", "/duel @bob renju first",
		"/as bob", "/accept",
		"/as alice", at(5, 7), "/as bob", at(0, 0),
		"/as alice", at(6, 7), "/as bob", at(14, 0),
		"/as alice", at(7, 5), "/as bob", at(0, 14),
		"/as alice", at(7, 6), "/as bob", at(14, 14),
		"/as alice", foul, "25", // typed, then its button (h8 in the window h–o, 11–1)
		"/lang zh", foul,
		at(8, 7),
		"/play renju exact",
		"/as bob", "/resign", "/rematch",
	}, "\n") + "\n"
	out := run(t, path, script)
	for _, want := range []string{
		"Renju 15×15",
		"⛔",
		"Forbidden for Black: double three.",
		"黑棋禁手：三三。",
		"上一步：⚫ " + at(8, 7), // the legal move after the refusals
		"renju 和 exact 是不同的规则：请只选一个。",
		"Challenge from bob to alice: Renju 15×15.", // the rematch keeps the rule
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(out, "Forbidden for Black: double three."); n != 2 {
		t.Errorf("the English refusal came %d times, want 2 (typed and tapped)", n)
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}
