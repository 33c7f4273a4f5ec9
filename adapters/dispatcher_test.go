package adapters

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

var ctx = context.Background()

// fakeClock is a clock, safe for concurrent use, that moves when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Advance(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// newDispatcher returns a dispatcher on a fresh bbolt file with clock c.
func newDispatcher(t *testing.T, c *fakeClock) (*Dispatcher, *session.Service) {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	seed := uint64(0)
	svc := session.New(st, &session.Config{Now: c.Now, NewSeed: func() uint64 { seed++; return seed }})
	return NewDispatcher(svc, "test", "", nil), svc
}

func req(name string) Request {
	return Request{Chat: "c", User: session.User{ID: "id-" + name, Name: name, Handle: name}, Locale: "en", Message: "m1", HasButton: true}
}

// tapAction taps the button of kind in the reply's keyboard.
func tapAction(t *testing.T, d *Dispatcher, r Request, game session.View, kind render.ActionKind) reply {
	t.Helper()
	_, kb := render.Message(game, render.English, render.ConsoleLayout, nil)
	for _, row := range kb.Rows {
		for _, b := range row {
			if b.Action.Kind == kind {
				return read(d.Tap(ctx, r, EncodeAction(b.Action)))
			}
		}
	}
	t.Fatalf("no button of kind %d on game %s (%s)", kind, game.ID(), game.Status())
	return reply{}
}

func TestChallengeButtons(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	r := read(d.Text(ctx, req("alice"), "/duel @bob first"))
	if r.Game == nil || r.Game.Status() != session.Open || r.Edit != "" {
		t.Fatalf("/duel: %+v", r)
	}
	ch := *r.Game
	if got := tapAction(t, d, req("carol"), ch, render.Accept); got.Notice != "This challenge is not for you." || got.Game != nil {
		t.Fatalf("carol accepts: %+v", got)
	}
	if got := tapAction(t, d, req("alice"), ch, render.Decline); got.Notice != "This challenge is not for you." {
		t.Fatalf("alice declines her own: %+v", got)
	}
	got := tapAction(t, d, req("bob"), ch, render.Decline)
	if got.Game == nil || got.Game.Status() != session.Declined || got.Edit != "m1" {
		t.Fatalf("bob declines: %+v", got)
	}
	if text, _ := render.Message(*got.Game, render.English, render.ConsoleLayout, nil); text != "bob declined the challenge." {
		t.Fatalf("declined text %q", text)
	}

	ch = *read(d.Text(ctx, req("alice"), "/duel")).Game
	if got := tapAction(t, d, req("bob"), ch, render.Cancel); got.Notice != "This challenge is not for you." {
		t.Fatalf("bob cancels alice's: %+v", got)
	}
	if got := tapAction(t, d, req("alice"), ch, render.Cancel); got.Game == nil || got.Game.Status() != session.Cancelled {
		t.Fatalf("alice cancels: %+v", got)
	}
	// A typed /accept with nothing to accept says so.
	if got := read(d.Text(ctx, req("bob"), "/accept")); got.Text != render.T(render.English, render.MsgNoChallenge) {
		t.Fatalf("/accept with nothing open: %+v", got)
	}
}

func TestDuelTypedMovesAndRematchTaps(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	ch := *read(d.Text(ctx, req("alice"), "/duel @bob first")).Game
	if err := bind(d, ch.ID(), "m1"); err != nil {
		t.Fatal(err)
	}
	acc := read(d.Text(ctx, req("bob"), "/accept"))
	if acc.Game == nil || acc.Game.Status() != session.Running || acc.Edit != "m1" {
		t.Fatalf("/accept: %+v", acc)
	}
	// Typed moves find each player's duel.
	for i, mv := range []struct{ who, cell string }{{"alice", "a3"}, {"bob", "a2"}, {"alice", "b3"}, {"bob", "b2"}, {"alice", "c3"}} {
		r := read(d.Text(ctx, req(mv.who), mv.cell))
		if r.Game == nil || r.Edit != "m1" {
			t.Fatalf("move %d (%s %s): %+v", i, mv.who, mv.cell, r)
		}
		acc = r
	}
	if acc.Game.Status() != session.Won {
		t.Fatalf("game %s", acc.Game.Status())
	}
	if r := read(d.Text(ctx, req("bob"), "c1")); r.Text != render.T(render.English, render.MsgTypedGameOver) || r.Game != nil {
		t.Fatalf("typed move after the game ended: %+v", r)
	}
	if r := read(d.Text(ctx, req("carol"), "c1")); !r.empty() {
		t.Fatalf("typed move of someone with no game: %+v", r)
	}
	first := tapAction(t, d, req("bob"), *acc.Game, render.Rematch)
	if first.Game == nil || first.Edit != "" || first.Game.SideOf("id-bob") != 1 {
		t.Fatalf("rematch tap: %+v", first)
	}
	if err := bind(d, first.Game.ID(), "m2"); err != nil {
		t.Fatal(err)
	}
	second := tapAction(t, d, req("alice"), *acc.Game, render.Rematch)
	if second.Game == nil || second.Game.ID() != first.Game.ID() || second.Edit != "m2" {
		t.Fatalf("second rematch tap: %+v, want game %s edited in m2", second, first.Game.ID())
	}
	if got := tapAction(t, d, req("carol"), *acc.Game, render.Rematch); got.Notice != "This is not your game." {
		t.Fatalf("stranger's rematch: %+v", got)
	}
}

func TestExpiredTapsAndSweeperReplies(t *testing.T) {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	d, svc := newDispatcher(t, c)
	ch := *read(d.Text(ctx, req("alice"), "/duel")).Game
	c.Advance(session.DefaultChallengeTTL)
	got := tapAction(t, d, req("bob"), ch, render.Accept)
	if got.Notice != "The game expired." || got.Game == nil || got.Game.Status() != session.Lapsed || got.Edit != "m1" {
		t.Fatalf("late accept: %+v", got)
	}
	if err := svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: "test", Chat: "c"}}).SetChatSettings(session.ChatSettings{Lang: "zh"}); err != nil {
		t.Fatal(err)
	}
	r := read(d.Expired(ctx, *got.Game))
	if r.Lang != render.Chinese || r.Game == nil {
		t.Fatalf("sweeper reply: %+v", r)
	}
	if text, kb := render.Message(*r.Game, r.Lang, render.ConsoleLayout, nil); !strings.Contains(text, "无人及时接受") || kb.Buttons() != 0 {
		t.Fatalf("lapsed challenge message %q with %d buttons", text, kb.Buttons())
	}
}

func TestLanguageSettings(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	if r := read(d.Text(ctx, req("alice"), "/lang zh")); r.Lang != render.Chinese || r.Text != render.T(render.Chinese, render.MsgLangSet) {
		t.Fatalf("/lang zh: %+v", r)
	}
	if r := read(d.Text(ctx, req("alice"), "/help")); r.Lang != render.Chinese || !strings.Contains(r.Text, "再来一局") {
		t.Fatalf("help after /lang zh: %+v", r)
	}
	if r := read(d.Text(ctx, req("bob"), "/help")); r.Lang != render.English {
		t.Fatalf("bob's language changed: %+v", r)
	}
	if r := read(d.Text(ctx, req("alice"), "/lang fr")); !strings.Contains(r.Text, "/lang en") {
		t.Fatalf("/lang fr: %+v", r)
	}
	if r := read(d.Text(ctx, req("alice"), "/duel @alice")); r.Text != render.T(render.Chinese, render.MsgDuelSelf) {
		t.Fatalf("duel oneself: %+v", r)
	}
	if r := read(d.Text(ctx, req("bob"), "/top hard")); r.Text != "Most wins against hard here:\nNobody is on this board yet." {
		t.Fatalf("/top hard: %q", r.Text)
	}
	if r := read(d.Text(ctx, req("bob"), "/stats")); r.Text != "bob — duel rating 1200, duels played: 0\nNo finished games yet." {
		t.Fatalf("/stats: %q", r.Text)
	}
}

func TestBarePlayUsesChatDefaults(t *testing.T) {
	d, svc := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	gomoku, _ := engine.Preset("gomoku")
	if err := svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: "test", Chat: "c"}}).SetChatSettings(session.ChatSettings{Rules: gomoku, Level: engine.Easy}); err != nil {
		t.Fatal(err)
	}
	r := read(d.Text(ctx, req("alice"), "/play"))
	if r.Game == nil || r.Game.Rules() != gomoku || r.Game.Seat(engine.White).AI != engine.Easy {
		t.Fatalf("bare /play: %+v", r)
	}
	r = read(d.Text(ctx, req("bob"), "/play ttt"))
	if r.Game == nil || r.Game.Rules() != engine.TicTacToe() || r.Game.Seat(engine.White).AI != engine.Medium {
		t.Fatalf("/play ttt: %+v", r)
	}
}

func TestDuelAddressedByIDIgnoresNames(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	args := DefaultDuel()
	if r := read(d.Duel(ctx, req("alice"), args, session.User{ID: "id-alice", Name: "someone"})); r.Game != nil || r.Text != render.T(render.English, render.MsgDuelSelf) {
		t.Fatalf("alice duels her own id: %+v", r)
	}
	// The member is named "Bob B." in the challenge; whoever answers is
	// matched by id, whatever their name.
	r := read(d.Duel(ctx, req("alice"), args, session.User{ID: "id-bob", Name: "Bob B."}))
	if r.Game == nil || r.Game.Status() != session.Open || r.Game.Seat(r.Game.Challenger().Opponent()).User.ID != "id-bob" {
		t.Fatalf("/duel by id: %+v", r)
	}
	impostor := req("carol")
	impostor.User.Name = "Bob B."
	if got := tapAction(t, d, impostor, *r.Game, render.Accept); got.Notice != "This challenge is not for you." {
		t.Fatalf("carol named like bob accepts: %+v", got)
	}
	bob := req("bob")
	bob.User.Name = "bobby"
	if got := tapAction(t, d, bob, *r.Game, render.Accept); got.Game == nil || got.Game.Status() != session.Running || got.Game.SideOf("id-bob") == 0 {
		t.Fatalf("bob accepts: %+v", got)
	}
}

// TestStaleTapRedrawsTheBoard checks that a tap on a board left behind
// (its game moved on, say by a move whose edit a crash lost) is refused
// and answered with the game as it is, to redraw the tapped message; a
// tap on another chat's game gets no game.
func TestStaleTapRedrawsTheBoard(t *testing.T) {
	d, svc := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	alice := req("alice")
	start := read(d.Text(ctx, alice, "/play easy"))
	if start.Game == nil {
		t.Fatalf("/play: %+v", start)
	}
	// As the adapter does once it sent the board.
	if err := bind(d, start.Game.ID(), alice.Message); err != nil {
		t.Fatal(err)
	}
	old := *start.Game
	moved := tapAction(t, d, alice, old, render.Place)
	if moved.Game == nil || moved.Notice != "" {
		t.Fatalf("first tap: %+v", moved)
	}
	stale := tapAction(t, d, alice, old, render.Place)
	if stale.Notice != render.T(render.English, render.MsgStale) || stale.Game == nil || stale.Edit != alice.Message ||
		stale.Game.MoveNo() != moved.Game.MoveNo() {
		t.Fatalf("stale tap: %+v", stale)
	}
	v, _ := svc.Game(ctx, old.ID())
	if v.Version() != moved.Game.Version() {
		t.Fatalf("stale tap changed the game: version %d, was %d", v.Version(), moved.Game.Version())
	}
	elsewhere := alice
	elsewhere.Chat = "other"
	if r := tapAction(t, d, elsewhere, old, render.Place); r.Game != nil || r.Notice == "" {
		t.Fatalf("stale tap from another chat: %+v", r)
	}
}

func TestStatsNameGamesAndLevelsInTheUsersLanguage(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	for _, play := range []string{"/play easy", "/play 6x4 k4 hard", "/play gomoku medium"} {
		if r := read(d.Text(ctx, req("alice"), play)); r.Game == nil {
			t.Fatalf("%s: %+v", play, r)
		}
		if r := read(d.Text(ctx, req("alice"), "/resign")); r.Game == nil {
			t.Fatalf("/resign: %+v", r)
		}
	}
	want := map[string]string{
		"/lang en": "alice — duel rating 1200, duels played: 0\n" +
			"Tic-tac-toe vs AI (easy): 0 won, 1 lost, 0 drawn\n" +
			"Other boards vs AI (hard): 0 won, 1 lost, 0 drawn\n" +
			"Gomoku vs AI (medium): 0 won, 1 lost, 0 drawn",
		"/lang zh": "alice — 对战积分 1200，已下对战：0\n" +
			"井字棋 对 AI（简单）：胜 0，负 1，平 0\n" +
			"其他棋盘 对 AI（困难）：胜 0，负 1，平 0\n" +
			"五子棋 对 AI（中等）：胜 0，负 1，平 0",
	}
	// Then the rating against the AI in each family, which every game
	// moved: its value depends on the ladder's Elo table.
	vsAI := map[string]*regexp.Regexp{
		"/lang en": regexp.MustCompile(`^\nRating against the AI, Tic-tac-toe: -?\d+ ± \d+ \(games counted: 1\)\nRating against the AI, Other boards: -?\d+ ± \d+ \(games counted: 1\)\nRating against the AI, Gomoku: -?\d+ ± \d+ \(games counted: 1\)$`),
		"/lang zh": regexp.MustCompile(`^\n对 AI 的积分（井字棋）：-?\d+ ± \d+（计入 1 局）\n对 AI 的积分（其他棋盘）：-?\d+ ± \d+（计入 1 局）\n对 AI 的积分（五子棋）：-?\d+ ± \d+（计入 1 局）$`),
	}
	for lang, stats := range want {
		read(d.Text(ctx, req("alice"), lang))
		r := read(d.Text(ctx, req("alice"), "/stats"))
		if rest, ok := strings.CutPrefix(r.Text, stats); !ok || !vsAI[lang].MatchString(rest) {
			t.Errorf("/stats after %s:\n%s\nwant\n%s\nand the ratings against the AI", lang, r.Text, stats)
		}
	}
}

func TestEveryBoardAndChallengeNamesItsRules(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	for _, tt := range []struct{ who, command, want string }{
		{"alice", "/play 6x4 k4 easy", "❌ alice  vs  ⭕ AI (easy) · 6×4, four in a row\n"},
		{"bob", "/duel 7x7 k4 exact first", "Open challenge from bob: 7×7, exactly four in a row. bob will play ❌."},
		{"carol", "/play gomoku hard", "⚫ carol  vs  ⚪ AI (hard) · Gomoku 15×15\n"},
	} {
		r := read(d.Text(ctx, req(tt.who), tt.command))
		if r.Game == nil {
			t.Fatalf("%s: %+v", tt.command, r)
		}
		if text, _ := render.Message(*r.Game, r.Lang, render.ConsoleLayout, nil); !strings.HasPrefix(text, tt.want) {
			t.Errorf("%s shows\n%s\nwant it to start %q", tt.command, text, tt.want)
		}
	}
}

// TestFullWidthInputIsRead checks that commands and cells typed in the
// full-width forms of Chinese input methods are read as their ASCII, as
// text and as a command naming a cell.
func TestFullWidthInputIsRead(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	alice, bob := req("alice"), req("bob")
	r := read(d.Text(ctx, alice, "／ｐｌａｙ　ｈａｒｄ　ｓｅｃｏｎｄ"))
	if r.Game == nil || r.Game.Seat(engine.Black).AI != engine.Hard {
		t.Fatalf("／ｐｌａｙ　ｈａｒｄ　ｓｅｃｏｎｄ: %+v", r)
	}
	moves := r.Game.MoveNo()
	cell := engine.Point{X: 0, Y: 2}
	if r.Game.Board().At(cell) != engine.Empty {
		cell = engine.Point{X: 2, Y: 0}
	}
	typed := map[engine.Point]string{{X: 0, Y: 2}: "ａ１", {X: 2, Y: 0}: "Ｃ３"}[cell]
	if r := read(d.Text(ctx, alice, typed)); r.Game == nil || r.Game.MoveNo() <= moves || r.Game.Board().At(cell) != engine.White {
		t.Fatalf("%s: %+v", typed, r)
	}
	if r := read(d.Text(ctx, bob, "/play ｅａｓｙ")); r.Game == nil || r.Game.Seat(engine.White).AI != engine.Easy {
		t.Fatalf("/play ｅａｓｙ: %+v", r)
	}
	if r := read(d.MoveCommand(ctx, bob, "ｂ２")); r.Game == nil || r.Game.Board().At(engine.Point{X: 1, Y: 1}) != engine.Black {
		t.Fatalf("/move ｂ２: %+v", r)
	}
	if r := read(d.Text(ctx, bob, "ｈｅｌｌｏ")); !r.empty() {
		t.Fatalf("full-width chat: %+v", r)
	}
}
