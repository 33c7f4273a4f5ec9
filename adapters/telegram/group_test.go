package telegram_test

import (
	"context"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// button returns the callback data of the message's button whose data
// starts with prefix (such as "a:" for Accept), failing when it has none.
func button(t testing.TB, m telegramtest.Message, prefix string) string {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if strings.HasPrefix(*b.CallbackData, prefix) {
				return *b.CallbackData
			}
		}
	}
	t.Fatalf("message %d has no %q button: %v", m.ID, prefix, m.Buttons())
	return ""
}

// gameOf returns the stored game a challenge or board message shows, by
// the id in its buttons.
func (h *harness) gameOf(m telegramtest.Message) session.View {
	h.t.Helper()
	id := ""
	for _, row := range m.Buttons() {
		for _, b := range row {
			if f := strings.Split(*b.CallbackData, ":"); len(f) > 1 && id == "" {
				id = f[1]
			}
		}
	}
	if id == "" {
		h.t.Fatalf("message %d has no button naming a game: %v", m.ID, m.Buttons())
	}
	v, err := h.svc.Game(context.Background(), session.GameID(id))
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// refused taps a button as a user who may not, and checks that the answer
// is the toast want and that neither the message nor the game changed.
func (h *harness) refused(chat tgbotapi.Chat, from tgbotapi.User, msg int, data string, id session.GameID, want string) {
	h.t.Helper()
	before, _ := h.fake.Message(chat.ID, msg)
	v, err := h.svc.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	if got := h.tap(chat, from, msg, data); got != want {
		h.t.Fatalf("%s tapping %q: answered %q, want %q", from.UserName, data, got, want)
	}
	after, _ := h.fake.Message(chat.ID, msg)
	now, err := h.svc.Game(context.Background(), id)
	if err != nil || after.Edits != before.Edits || now.Version() != v.Version() {
		h.t.Fatalf("%s's refused tap %q changed things: %d → %d edits, version %d → %d (%v)",
			from.UserName, data, before.Edits, after.Edits, v.Version(), now.Version(), err)
	}
}

func TestDuelInAGroupWithAThirdMemberTapping(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-2000)
	alice, bob, carol := named(2001, "alice", "en"), named(2002, "bob", "en"), named(2003, "carol", "en")
	en := func(k render.Key, args ...any) string { return render.T(render.English, k, args...) }

	// An open challenge: Accept and Cancel, no Decline.
	ch := h.startGame(chat, alice, "/duel@BoardTestBot")
	v := h.gameOf(ch)
	if v.Status() != session.Open || ch.Text != render.ChallengeText(v, render.English) || !strings.Contains(ch.Text, "alice") {
		t.Fatalf("challenge %v:\n%s", v.Status(), ch.Text)
	}
	accept, cancel := button(t, ch, "a:"), button(t, ch, "c:")
	h.refused(chat, carol, ch.ID, cancel, v.ID(), en(render.MsgNotForYou))
	if got := h.tap(chat, bob, ch.ID, accept); got != "" {
		t.Fatalf("bob's accept answered %q", got)
	}
	// The challenge message became the board.
	board, _ := h.fake.Message(chat.ID, ch.ID)
	v = h.gameOf(board)
	if v.Status() != session.Running || board.Edits != 1 || v.SideOf("2001") == 0 || v.SideOf("2002") == 0 || v.Message() != itoa(ch.ID) {
		t.Fatalf("after accept: %v, %d edits, message %q:\n%s", v.Status(), board.Edits, v.Message(), board.Text)
	}
	checkBoardMatches(t, board, v)
	// A doubled accept changes nothing; so does a late one by carol.
	h.refused(chat, bob, ch.ID, accept, v.ID(), "")
	h.refused(chat, carol, ch.ID, accept, v.ID(), en(render.MsgNotOpen))

	// The two alternate taps to the end; the one waiting and a third
	// member get toasts and change nothing.
	players := map[engine.Stone]tgbotapi.User{v.SideOf("2001"): alice, v.SideOf("2002"): bob}
	for moves := 0; v.Status() == session.Running; moves++ {
		if moves > 9 {
			t.Fatal("tic-tac-toe did not end in 9 moves")
		}
		m, _ := h.fake.Message(chat.ID, ch.ID)
		live := placeButtons(m)
		h.refused(chat, carol, m.ID, live[0], v.ID(), en(render.MsgNotAPlayer))
		h.refused(chat, players[v.ToMove().Opponent()], m.ID, live[0], v.ID(), en(render.MsgNotYourTurn))
		if got := h.tap(chat, players[v.ToMove()], m.ID, live[len(live)/2]); got != "" {
			t.Fatalf("move %d answered %q", moves, got)
		}
		after, _ := h.fake.Message(chat.ID, ch.ID)
		v = h.gameOf(after)
		if after.Edits != m.Edits+1 || len(v.Moves()) != moves+1 {
			t.Fatalf("move %d: %d edits, %d moves", moves, after.Edits-m.Edits, len(v.Moves()))
		}
		checkBoardMatches(t, after, v)
	}
	final, _ := h.fake.Message(chat.ID, ch.ID)
	if !strings.Contains(final.Text, "Winner") && !strings.Contains(final.Text, "Draw") {
		t.Fatalf("final board:\n%s", final.Text)
	}
	if n := len(h.fake.BotMessages(chat.ID)); n != 1 {
		t.Fatalf("the duel took %d messages", n)
	}

	// /stats and /top answer, naming the players by their usernames.
	h.say(chat, alice, "/stats")
	if s := h.lastBot(chat).Text; !strings.Contains(s, "alice") || !strings.Contains(s, en(render.MsgVsPeople)) {
		t.Fatalf("alice's /stats:\n%s", s)
	}
	h.say(chat, carol, "/stats@BoardTestBot")
	if s := h.lastBot(chat).Text; !strings.Contains(s, "carol") || !strings.Contains(s, en(render.MsgStatsNone)) {
		t.Fatalf("carol's /stats:\n%s", s)
	}
	h.say(chat, bob, "/top")
	if s := h.lastBot(chat).Text; !strings.HasPrefix(s, en(render.MsgTopRating)) || !strings.Contains(s, "alice") || !strings.Contains(s, "bob") || strings.Contains(s, "carol") {
		t.Fatalf("/top:\n%s", s)
	}

	// A challenge addressed by username: only bob may answer it, and his
	// decline edits the message.
	to := h.startGame(chat, alice, "/duel @Bob 7x7")
	v = h.gameOf(to)
	if to.Text != render.ChallengeText(v, render.English) || v.Rules().Width != 7 {
		t.Fatalf("addressed challenge:\n%s", to.Text)
	}
	decline := button(t, to, "d:")
	h.refused(chat, carol, to.ID, button(t, to, "a:"), v.ID(), en(render.MsgNotForYou))
	h.refused(chat, carol, to.ID, decline, v.ID(), en(render.MsgNotForYou))
	if got := h.tap(chat, bob, to.ID, decline); got != "" {
		t.Fatalf("bob's decline answered %q", got)
	}
	declined, _ := h.fake.Message(chat.ID, to.ID)
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.Status() != session.Declined || declined.Edits != 1 || declined.Text != render.ChallengeText(v, render.English) || len(declined.Buttons()) != 0 {
		t.Fatalf("after decline: %v, %d edits:\n%s\n%v", v.Status(), declined.Edits, declined.Text, declined.Buttons())
	}

	// A typed /cancel edits the challenge and sends nothing new.
	open := h.startGame(chat, bob, "/duel second")
	n := len(h.fake.BotMessages(chat.ID))
	h.say(chat, bob, "/cancel")
	cancelled, _ := h.fake.Message(chat.ID, open.ID)
	v = h.gameOf(open)
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.Status() != session.Cancelled || cancelled.Edits != 1 || cancelled.Text != render.ChallengeText(v, render.English) || len(cancelled.Buttons()) != 0 || len(h.fake.BotMessages(chat.ID)) != n {
		t.Fatalf("after /cancel: %v, %d edits:\n%s", v.Status(), cancelled.Edits, cancelled.Text)
	}

	// A typed /accept of a challenge to alice turns it into the board.
	mine := h.startGame(chat, bob, "/duel @alice")
	h.say(chat, alice, "/accept")
	accepted, _ := h.fake.Message(chat.ID, mine.ID)
	v = h.gameOf(accepted)
	if v.Status() != session.Running || accepted.Edits != 1 {
		t.Fatalf("after /accept: %v, %d edits", v.Status(), accepted.Edits)
	}
	checkBoardMatches(t, accepted, v)
}

func TestLangChangesThatUsersBoards(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-2100)
	dan, erin := named(2101, "dan", "en"), named(2102, "erin", "en")
	h.say(chat, dan, "/lang zh")
	if got := h.lastBot(chat).Text; got != render.T(render.Chinese, render.MsgLangSet) {
		t.Fatalf("/lang zh answered %q", got)
	}
	mD := h.startGame(chat, dan, "/play easy ttt")
	mE := h.startGame(chat, erin, "/play easy ttt")
	vD, vE := h.gameOf(mD), h.gameOf(mE)
	if mD.Text != render.Text(vD, render.Chinese) || mE.Text != render.Text(vE, render.English) {
		t.Fatalf("boards:\n%s\n---\n%s", mD.Text, mE.Text)
	}
	// Dan's taps keep his board Chinese; his refusals are Chinese too.
	if got := h.tap(chat, dan, mD.ID, placeButtons(mD)[0]); got != "" {
		t.Fatalf("dan's tap answered %q", got)
	}
	after, _ := h.fake.Message(chat.ID, mD.ID)
	if v := h.gameOf(after); after.Text != render.Text(v, render.Chinese) || *after.Buttons()[3][0].CallbackData != "r:"+string(v.ID()) || after.Buttons()[3][0].Text != render.T(render.Chinese, render.MsgResignButton) {
		t.Fatalf("dan's board after a tap:\n%s\n%v", after.Text, after.Buttons())
	}
	h.refused(chat, dan, mE.ID, placeButtons(mE)[0], vE.ID(), render.T(render.Chinese, render.MsgNotAPlayer))
	h.say(chat, dan, "/stats")
	if s := h.lastBot(chat).Text; !strings.Contains(s, render.T(render.Chinese, render.MsgStatsNone)) {
		t.Fatalf("dan's /stats:\n%s", s)
	}
	h.say(chat, erin, "/top")
	if s := h.lastBot(chat).Text; !strings.HasPrefix(s, render.T(render.English, render.MsgTopRating)) {
		t.Fatalf("erin's /top:\n%s", s)
	}
	// Back to English.
	h.say(chat, dan, "/lang en")
	h.say(chat, dan, "/resign")
	final, _ := h.fake.Message(chat.ID, mD.ID)
	if v, _ := h.svc.Game(context.Background(), vD.ID()); final.Text != render.Text(v, render.English) {
		t.Fatalf("dan's board after /lang en and /resign:\n%s", final.Text)
	}
}

// TestTypedMoveGoesToTheGameOnScreen checks that a typed move goes to the
// game last shown to its player, the duel /accept just showed, rather than
// to their game against the AI; and that once that game is over it goes
// to the one game left, without asking which.
func TestTypedMoveGoesToTheGameOnScreen(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-901)
	alice, bob := named(91, "alice", "en"), named(92, "bob", "en")
	aiMsg := h.startGame(chat, alice, "/play easy")
	ai := h.gameOf(aiMsg)
	duelMsg := h.startGame(chat, alice, "/duel @bob first")
	h.say(chat, bob, "/accept")
	h.say(chat, alice, "b2")
	if v := h.gameOf(duelMsg); v.Status() != session.Running || v.MoveNo() != 1 {
		t.Fatalf("b2 did not go to the duel on screen: move %d", v.MoveNo())
	}
	if v, _ := h.svc.Game(context.Background(), ai.ID()); v.MoveNo() != 0 {
		t.Fatalf("b2 went to the game against the AI")
	}
	if m, _ := h.fake.Message(chat.ID, aiMsg.ID); m.Edits != 0 {
		t.Fatalf("the AI game's board was edited %d times", m.Edits)
	}
	h.say(chat, alice, "/resign")
	before := len(h.fake.BotMessages(chat.ID))
	h.say(chat, alice, "a1")
	if v, _ := h.svc.Game(context.Background(), ai.ID()); v.MoveNo() != 2 || len(h.fake.BotMessages(chat.ID)) != before {
		t.Fatalf("a1 after the duel ended: AI game at move %d, %d messages more", v.MoveNo(), len(h.fake.BotMessages(chat.ID))-before)
	}
	if m, _ := h.fake.Message(chat.ID, aiMsg.ID); m.Edits == 0 {
		t.Fatalf("a1 did not edit the AI game's board")
	}
}

// TestChoosingAPictureGameAnswersBelowTheQuestion checks that the answer
// to "Which game is "h8" for?" that names a game shown as a photo plays h8
// there, and, as the question, a text message, cannot become a photo,
// sends its board below and binds it.
func TestChoosingAPictureGameAnswersBelowTheQuestion(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-902)
	alice, bob := named(93, "alice", "en"), named(94, "bob", "en")
	gomoku := h.gameOf(h.startGame(chat, alice, "/play gomoku easy"))
	duel := h.gameOf(h.startGame(chat, alice, "/duel @bob 9x9 first"))
	h.say(chat, bob, "/accept")
	h.startGame(chat, alice, "/duel")
	h.say(chat, alice, "/cancel")
	h.say(chat, alice, "h8")
	q := h.lastBot(chat)
	if q.Text != `Which game is "h8" for?` || len(q.Buttons()) != 2 {
		t.Fatalf("h8 with two games answered %q with %v", q.Text, q.Buttons())
	}
	if got := h.tap(chat, alice, q.ID, button(t, q, "f:p:"+string(gomoku.ID())+":")); got != "" {
		t.Fatalf("choosing the gomoku game answered %q", got)
	}
	board := h.lastBot(chat)
	v, _ := h.svc.Game(context.Background(), gomoku.ID())
	if board.ID == q.ID || board.Photo == nil || v.Message() != itoa(board.ID) || v.MoveNo() != 2 || v.Board().At(engine.Point{X: 7, Y: 7}) != engine.Black {
		t.Fatalf("the gomoku board %+v is not a new photo bound to its game (message %q) with h8 (move %d)", board, v.Message(), v.MoveNo())
	}
	if m, _ := h.fake.Message(chat.ID, q.ID); m.Edits != 0 {
		t.Errorf("the question was edited %d times", m.Edits)
	}
	if now, _ := h.svc.Game(context.Background(), duel.ID()); now.MoveNo() != 0 {
		t.Errorf("h8 went to the duel too")
	}
}
