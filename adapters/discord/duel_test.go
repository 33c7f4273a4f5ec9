package discord

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// buttonOf returns the custom_id of the live button whose callback data
// starts with prefix, such as "a:" for Accept.
func buttonOf(t *testing.T, m discordtest.Message, prefix string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, prefix) && !b.Disabled {
			return b.CustomID
		}
	}
	t.Fatalf("no live %q button on %+v", prefix, m)
	return ""
}

// challenge makes u challenge opponent in channel by /play
// opponent:@member and returns the challenge message.
func (h *harness) challenge(u, opponent discordtest.User, channel string, opts ...discordtest.Option) discordtest.Message {
	h.t.Helper()
	opts = append([]discordtest.Option{discordtest.UserOption(optOpponent, opponent)}, opts...)
	_, r := h.command(u, channel, cmdPlay, opts...)
	m, ok := h.fake.Message(r.Original)
	if r.Type != 4 || !ok || m.Ephemeral {
		h.t.Fatalf("challenge answered %+v, message %+v", r, m)
	}
	return m
}

// game returns the game a message shows.
func (h *harness) game(m discordtest.Message) session.View {
	h.t.Helper()
	v, err := h.svc.Game(h.t.Context(), gameOf(h.t.(*testing.T), m))
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

func TestDuelAcceptPlayDecline(t *testing.T) {
	h := newHarness(t, nil)
	ch := h.challenge(ann, bob, "duel", discordtest.StringOption(optSide, "first"))
	// The challenge names bob (as the member list resolves him), pings
	// him, and has Accept, Decline and Cancel.
	if !strings.HasPrefix(ch.Content, "<@"+bob.ID+"> ") || !strings.Contains(ch.Content, "ann") || !strings.Contains(ch.Content, "bob") {
		t.Errorf("challenge text %q", ch.Content)
	}
	var kinds []string
	for _, b := range ch.Buttons() {
		kinds = append(kinds, strings.SplitN(b.CustomID, ":", 2)[0])
	}
	if strings.Join(kinds, " ") != "a d c" {
		t.Fatalf("challenge buttons %+v", ch.Rows)
	}
	call := h.fake.Calls()
	if last := call[len(call)-2]; !strings.Contains(last.Body, `"users":["`+bob.ID+`"]`) {
		t.Errorf("the challenge does not allow pinging bob: %s", last.Body)
	}

	// Carol may not answer bob's challenge, nor may ann decline it.
	r := h.tap(carol, ch.ID, buttonOf(t, ch, "a:"))
	if got := h.ephemeral(r, carol); got != render.T(render.English, render.MsgNotForYou) {
		t.Errorf("carol accepting was told %q", got)
	}
	r = h.tap(ann, ch.ID, buttonOf(t, ch, "d:"))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgNotForYou) {
		t.Errorf("ann declining her own challenge was told %q", got)
	}
	if m := h.message(ch.ID); m.Edits != 0 {
		t.Fatalf("refused answers changed the challenge: %+v", m)
	}

	// Bob accepts: the message becomes the board, in bob's language.
	r = h.tap(bob, ch.ID, buttonOf(t, ch, "a:"))
	board := h.message(ch.ID)
	if r.Type != 7 || len(placeButtons(board)) != 9 || !strings.Contains(board.Content, "轮到") {
		t.Fatalf("accept answered %+v, board %+v", r, board)
	}
	v := h.game(board)
	if v.Status() != session.Running || v.Seat(engine.Black).User.ID != ann.ID || v.Seat(engine.White).User.ID != bob.ID {
		t.Fatalf("duel %s: black %+v, white %+v", v.Status(), v.Seat(engine.Black), v.Seat(engine.White))
	}

	users := map[string]discordtest.User{ann.ID: ann, bob.ID: bob}
	for moves := 0; v.Status() == session.Running; moves++ {
		if moves > 9 {
			t.Fatal("the duel did not end")
		}
		live := placeButtons(board)
		mover := users[v.Seat(v.ToMove()).User.ID]
		waiter := users[v.Seat(v.ToMove().Opponent()).User.ID]
		if moves == 1 {
			// Carol is no player, and the waiting player must wait.
			if got := h.ephemeral(h.tap(carol, board.ID, live[0]), carol); got != render.T(render.English, render.MsgNotAPlayer) {
				t.Errorf("carol's tap was answered %q", got)
			}
			if got := h.ephemeral(h.tap(waiter, board.ID, live[0]), waiter); got != render.T(render.LangOf(waiter.Locale), render.MsgNotYourTurn) {
				t.Errorf("%s tapping out of turn was answered %q", waiter.Name, got)
			}
			if m := h.message(board.ID); m.Edits != board.Edits {
				t.Fatal("refused taps changed the board")
			}
		}
		r := h.tap(mover, board.ID, live[0])
		board = h.message(board.ID)
		if r.Type != 7 || r.Original != board.ID {
			t.Fatalf("%s's tap answered %+v", mover.Name, r)
		}
		v = h.game(board)
		if v.MoveNo() != moves+1 {
			t.Fatalf("after %d taps the game has %d moves", moves+1, v.MoveNo())
		}
	}
	if !v.Status().Played() || !strings.Contains(board.Content, render.Status(v, render.LangOf(users[v.Seat(v.ToMove().Opponent()).User.ID].Locale))) {
		t.Errorf("final duel %s:\n%s", v.Status(), board.Content)
	}
	if got := h.ephemeral(h.tap(carol, board.ID, buttonOf(t, board, "R:")), carol); got != render.T(render.English, render.MsgNotAPlayer) {
		t.Errorf("carol's rematch tap was answered %q", got)
	}
	// The channel's leaderboard now ranks both players.
	_, r = h.command(ann, "duel", cmdTop)
	if top := h.ephemeral(r, ann); !strings.Contains(top, "1. ") || !strings.Contains(top, "2. ") || !strings.Contains(top, "ann") || !strings.Contains(top, "bob") {
		t.Errorf("/top after the duel:\n%s", top)
	}
	// Ann's rematch is a new challenge to bob, posted below the board.
	re := h.posted(h.tap(ann, board.ID, buttonOf(t, board, "R:")))
	if re.Ephemeral || !strings.HasPrefix(re.Content, "<@"+bob.ID+"> ") {
		t.Fatalf("rematch challenge %+v", re)
	}
	h.tap(bob, re.ID, buttonOf(t, re, "a:"))
	if rv := h.game(h.message(re.ID)); rv.Status() != session.Running || rv.Seat(engine.Black).User.ID != bob.ID {
		t.Errorf("rematch %s with black %+v, want bob first", rv.Status(), rv.Seat(engine.Black))
	}

	// A second challenge, declined: the message says so, without buttons.
	ch = h.challenge(ann, bob, "duel")
	r = h.tap(bob, ch.ID, buttonOf(t, ch, "d:"))
	m := h.message(ch.ID)
	want := render.T(render.Chinese, render.MsgChallengeDeclined, "bob")
	if r.Type != 7 || m.Content != want || len(m.Buttons()) != 0 {
		t.Errorf("decline answered %+v; message %q %+v, want %q", r, m.Content, m.Rows, want)
	}
	if s := h.game(ch).Status(); s != session.Declined {
		t.Errorf("declined challenge is %s", s)
	}
}

func TestChallengerCancelsAndStrangersCannot(t *testing.T) {
	h := newHarness(t, nil)
	ch := h.challenge(ann, carol, "c", discordtest.StringOption(optGame, "gomoku"))
	if len(ch.Attachments) != 0 {
		t.Errorf("a challenge carries %d attachments", len(ch.Attachments))
	}
	if got := h.ephemeral(h.tap(bob, ch.ID, buttonOf(t, ch, "c:")), bob); got != render.T(render.Chinese, render.MsgNotForYou) {
		t.Errorf("bob cancelling ann's challenge: %q", got)
	}
	r := h.tap(ann, ch.ID, buttonOf(t, ch, "c:"))
	if m := h.message(ch.ID); r.Type != 7 || m.Content != render.T(render.English, render.MsgChallengeCanceled, "ann") || len(m.Buttons()) != 0 {
		t.Errorf("cancel answered %+v: %+v", r, m)
	}
}

func TestDuelOptionsThatMakeNoChallenge(t *testing.T) {
	h := newHarness(t, nil)
	_, r := h.command(ann, "c", cmdPlay, discordtest.UserOption(optOpponent, ann))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgDuelSelf) {
		t.Errorf("challenging oneself: %q", got)
	}
	_, r = h.command(ann, "c", cmdPlay, discordtest.UserOption(optOpponent, bob), discordtest.StringOption(optLevel, "hard"))
	if got := h.ephemeral(r, ann); !strings.Contains(got, "hard") {
		t.Errorf("a duel with a level: %q", got)
	}
	if ms := h.fake.Messages("c"); len(ms) != 2 || !ms[0].Ephemeral || !ms[1].Ephemeral {
		t.Errorf("messages %+v, want two private refusals", ms)
	}
}

// gomoku is the rules of a 15×15 board.
var gomoku, _ = engine.Preset("gomoku")

// picture decodes a message's one attachment, the board's PNG, and checks
// its size against the game's rules.
func picture(t *testing.T, m discordtest.Message, r engine.Rules) discordtest.Attachment {
	t.Helper()
	if len(m.Attachments) != 1 {
		t.Fatalf("message %s has %d attachments, want the board's picture", m.ID, len(m.Attachments))
	}
	a := m.Attachments[0]
	img, err := png.Decode(bytes.NewReader(a.Data))
	if err != nil || a.Filename != pictureName || a.ContentType != "image/png" {
		t.Fatalf("attachment %s (%s): %v", a.Filename, a.ContentType, err)
	}
	if got, want := img.Bounds().Size(), render.PictureSize(r); got != want {
		t.Fatalf("picture of %v, want %v", got, want)
	}
	return a
}

func TestLargeBoardsCarryTheirPicture(t *testing.T) {
	h := newHarness(t, nil)
	small := h.play(ann, "small")
	if len(small.Attachments) != 0 {
		t.Errorf("a 3×3 board has %d attachments", len(small.Attachments))
	}

	board := h.play(ann, "c", discordtest.StringOption(optGame, "gomoku"), discordtest.StringOption(optLevel, "easy"))
	first := picture(t, board, gomoku)
	// A tap updates the message with a new picture in place of the old.
	r := h.tap(ann, board.ID, placeButtons(board)[0])
	board = h.message(board.ID)
	second := picture(t, board, gomoku)
	if r.Type != 7 || second.ID == first.ID || bytes.Equal(second.Data, first.Data) {
		t.Fatalf("after a tap (%+v) the picture is %s, was %s; same image %v", r, second.ID, first.ID, bytes.Equal(second.Data, first.Data))
	}
	// So does a typed move, which edits the message by its id.
	h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, nextCellOf(t, h, "c")))
	board = h.message(board.ID)
	if third := picture(t, board, gomoku); third.ID == second.ID || bytes.Equal(third.Data, second.Data) {
		t.Fatal("/move did not replace the picture")
	}
	// Moving the window keeps one picture of the same board.
	before := board
	h.tap(ann, board.ID, buttonOf(t, board, "s:"))
	board = h.message(board.ID)
	if a := picture(t, board, gomoku); !bytes.Equal(a.Data, before.Attachments[0].Data) {
		t.Error("scrolling changed the picture")
	}
	var uploads int
	for _, c := range h.fake.Calls() {
		if len(c.Files) > 0 {
			uploads++
			if c.Status >= 300 || len(c.Files) != 1 || c.Files[0] != pictureName {
				t.Errorf("upload %+v", c)
			}
		}
	}
	if uploads != 4 {
		t.Errorf("%d uploads, want 4 (start, tap, /move, scroll)", uploads)
	}
}

func TestSweeperEndsGamesAndEditsTheirMessages(t *testing.T) {
	h := newHarness(t, nil)
	open := h.challenge(ann, bob, "open")
	duel := h.challenge(ann, carol, "duel", discordtest.StringOption(optSide, "first"))
	h.tap(carol, duel.ID, buttonOf(t, duel, "a:"))
	ai := h.play(carol, "ai", discordtest.StringOption(optGame, "gomoku"))
	before := picture(t, ai, gomoku)

	if n, err := h.svc.Sweep(t.Context()); err != nil || n != 0 {
		t.Fatalf("sweep before the deadlines ended %d: %v", n, err)
	}
	h.advance(session.DefaultIdleAI + time.Minute)
	n, err := h.svc.Sweep(t.Context())
	if err != nil || n != 3 {
		t.Fatalf("sweep ended %d: %v", n, err)
	}
	// Sweep called Expired with each game, which edited its message.
	if m := h.message(open.ID); m.Content != render.T(render.English, render.MsgChallengeLapsed, "ann") || len(m.Buttons()) != 0 {
		t.Errorf("lapsed challenge: %q %+v", m.Content, m.Rows)
	}
	m := h.message(duel.ID)
	// Nobody moved in the duel: it is aborted, with no winner.
	if !strings.HasSuffix(m.Content, render.T(render.English, render.MsgAborted)) || len(placeButtons(m)) != 0 {
		t.Errorf("expired duel:\n%s", m.Content)
	}
	buttonOf(t, m, "R:")
	m = h.message(ai.ID)
	if after := picture(t, m, gomoku); m.Edits != 1 || after.ID == before.ID || len(placeButtons(m)) != 0 {
		t.Errorf("expired game against the AI: %d edits, %+v", m.Edits, m.Rows)
	}
	if n, err := h.svc.Sweep(t.Context()); err != nil || n != 0 {
		t.Errorf("a second sweep ended %d: %v", n, err)
	}
}

func TestExpiredIgnoresOtherGames(t *testing.T) {
	h := newHarness(t, nil)
	calls := len(h.fake.Calls())
	h.bot.Expired(session.View{})
	if got := len(h.fake.Calls()); got != calls {
		t.Errorf("Expired of a game with no message made %d calls", got-calls)
	}
}

func TestLangOverrideStatsAndTop(t *testing.T) {
	h := newHarness(t, nil)
	_, r := h.command(ann, "c", cmdLang, discordtest.StringOption(optLanguage, "zh"))
	if got := h.ephemeral(r, ann); got != render.T(render.Chinese, render.MsgLangSet) {
		t.Fatalf("/lang zh answered %q", got)
	}
	// ann's client is English, but her boards are now in Chinese; carol's
	// are not.
	board := h.play(ann, "c")
	if !strings.Contains(board.Content, "轮到") || board.Rows[3][0].Label != render.T(render.Chinese, render.MsgResignButton) {
		t.Fatalf("ann's board after /lang zh:\n%s", board.Content)
	}
	h.tap(ann, board.ID, placeButtons(board)[4])
	if m := h.message(board.ID); !strings.Contains(m.Content, "轮到") {
		t.Errorf("ann's board after a tap:\n%s", m.Content)
	}
	if other := h.play(carol, "c2"); strings.Contains(other.Content, "轮到") {
		t.Errorf("carol's board is in Chinese:\n%s", other.Content)
	}
	_, r = h.command(ann, "c", cmdResign)
	h.ephemeral(r, ann)

	// The chart comes first, the numbers below it.
	_, r = h.command(ann, "c", cmdStats)
	texts := h.texts(r, ann)
	stats := texts[len(texts)-1]
	want := render.T(render.Chinese, render.MsgStatsHeader, "ann", 1200, 0) + "\n" +
		render.T(render.Chinese, render.MsgStatsLine, render.FamilyName(render.Chinese, engine.FamilyTicTacToe), render.T(render.Chinese, render.MsgAI, render.LevelName(render.Chinese, engine.Medium)), 0, 1, 0)
	// Then the rating against the AI the game moved, in Chinese too.
	if !strings.HasPrefix(stats, want+"\n对 AI 的积分（井字棋）：") {
		t.Errorf("/stats answered %q, want %q and the rating against the AI", stats, want)
	}
	_, r = h.command(carol, "c", cmdTop)
	if top := h.ephemeral(r, carol); !strings.HasPrefix(top, render.T(render.English, render.MsgTopRating)) {
		t.Errorf("/top answered %q", top)
	}
	_, r = h.command(ann, "c", cmdLang, discordtest.StringOption(optLanguage, "en"))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgLangSet) {
		t.Errorf("/lang en answered %q", got)
	}
}

func TestDeferredTapAndRematchCarryThePicture(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optGame, "gomoku"), discordtest.StringOption(optLevel, "easy"))
	before := picture(t, board, gomoku)
	h.tapDeferred(board, placeButtons(board)[0])
	board = h.message(board.ID)
	if after := picture(t, board, gomoku); after.ID == before.ID || board.Edits != 1 {
		t.Fatalf("after the deferred tap: %d edits, picture %s (was %s)", board.Edits, after.ID, before.ID)
	}
	h.mu.Lock()
	h.gate, h.fire = nil, nil
	h.mu.Unlock()

	// The rematch of a finished board is a new message, with its picture.
	_, r := h.command(ann, "c", cmdResign)
	h.ephemeral(r, ann)
	again := h.posted(h.tap(ann, board.ID, buttonOf(t, h.message(board.ID), "R:")))
	picture(t, again, gomoku)
	if again.Ephemeral || len(placeButtons(again)) == 0 || gameOf(t, again) == gameOf(t, board) {
		t.Errorf("rematch board %+v", again)
	}
}

// BenchmarkGomokuTapWithPicture measures a tap on a 15×15 board against
// the easy AI: the update carries a new picture (multipart) through
// discordgo to the fake.
func BenchmarkGomokuTapWithPicture(b *testing.B) {
	h := newHarness(b, nil)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		board := h.play(ann, fmt.Sprint("bench-", i), discordtest.StringOption(optGame, "gomoku"), discordtest.StringOption(optLevel, "easy"))
		b.StartTimer()
		h.tap(ann, board.ID, placeButtons(board)[0])
	}
}

// TestTypedMoveGoesToTheGameOnScreen checks that /move goes to the duel
// just accepted rather than to the player's game against the AI; that
// once that duel is over /move goes to the one game left without asking;
// and that with several games left it asks which, privately, with a
// button per game that plays the move there, on a board posted anew.
func TestTypedMoveGoesToTheGameOnScreen(t *testing.T) {
	h := newHarness(t, nil)
	aiBoard := h.play(ann, "c")
	ch := h.challenge(ann, bob, "c", discordtest.StringOption(optSide, "first"))
	h.tap(bob, ch.ID, buttonOf(t, ch, "a:"))
	h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, "b2"))
	if v := h.game(h.message(ch.ID)); v.MoveNo() != 1 {
		t.Fatalf("b2 did not go to the duel on screen: move %d", v.MoveNo())
	}
	if v := h.game(aiBoard); v.MoveNo() != 0 {
		t.Fatalf("b2 went to the game against the AI")
	}
	h.command(ann, "c", cmdResign)
	_, r := h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, "a1"))
	if v := h.game(aiBoard); v.MoveNo() != 2 || strings.Contains(strings.Join(h.texts(r, ann), "\n"), "Which game") {
		t.Fatalf("a1 after the duel ended: AI game at move %d, answers %q", v.MoveNo(), h.texts(r, ann))
	}

	// Another duel, and a challenge withdrawn on screen: two games run.
	ch = h.challenge(ann, carol, "c", discordtest.StringOption(optSide, "first"))
	h.tap(carol, ch.ID, buttonOf(t, ch, "a:"))
	open := h.challenge(ann, bob, "c")
	h.tap(ann, open.ID, buttonOf(t, open, "c:"))
	_, r = h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, "c3"))
	if got := h.ephemeral(r, ann); got != `Which game is "c3" for?` {
		t.Fatalf("c3 with two games: %q", got)
	}
	q := h.message(r.Original)
	answer := "f:p:" + string(h.game(aiBoard).ID()) + ":"
	shown := h.posted(h.tap(ann, q.ID, buttonOf(t, q, answer)))
	if v := h.game(aiBoard); v.MoveNo() != 4 || v.Message() != shown.ID || v.Board().At(engine.Point{X: 2, Y: 0}) != engine.Black {
		t.Fatalf("c3 after choosing: AI game at move %d shown in %q, want 4 in %s", v.MoveNo(), v.Message(), shown.ID)
	}
	if v := h.game(h.message(ch.ID)); v.MoveNo() != 0 {
		t.Fatalf("c3 went to the duel too")
	}
}

func TestExpiryIsShownInThePlayersLanguage(t *testing.T) {
	h := newHarness(t, nil)
	for _, u := range []discordtest.User{ann, carol} {
		h.command(u, "zh", cmdLang, discordtest.StringOption(optLanguage, "zh"))
	}
	ai := h.play(carol, "zh")
	duel := h.challenge(ann, carol, "zh", discordtest.StringOption(optSide, "first"))
	h.tap(carol, duel.ID, buttonOf(t, duel, "a:"))
	mixed := h.challenge(ann, bob, "mixed", discordtest.StringOption(optSide, "first"))
	h.tap(bob, mixed.ID, buttonOf(t, mixed, "a:"))

	h.advance(session.DefaultIdleAI + time.Minute)
	if n, err := h.svc.Sweep(t.Context()); err != nil || n != 3 {
		t.Fatalf("sweep ended %d: %v", n, err)
	}
	// The duels had no move, so they end aborted; each ended game speaks
	// its players' language.
	for id, want := range map[string]string{
		ai.ID:   render.T(render.Chinese, render.MsgExpired),
		duel.ID: render.T(render.Chinese, render.MsgAborted),
		// Players who differ, in a chat with no language: English.
		mixed.ID: render.T(render.English, render.MsgAborted),
	} {
		if m := h.message(id); !strings.Contains(m.Content, want) {
			t.Errorf("an ended game lacks %q:\n%s", want, m.Content)
		}
	}
}

// TestMoveThatNamesNoCellInADuel checks that /move with text that names no
// cell tells a player of a duel what is wrong, as it tells a player
// against the AI, instead of saying they have no game.
func TestMoveThatNamesNoCellInADuel(t *testing.T) {
	h := newHarness(t, nil)
	ch := h.challenge(ann, bob, "duel-move", discordtest.StringOption(optSide, "first"))
	h.tap(bob, ch.ID, buttonOf(t, ch, "a:"))
	_, r := h.command(ann, "duel-move", cmdMove, discordtest.StringOption(optCell, "zz"))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgBadCoord, "zz") {
		t.Errorf("/move zz in a duel: %q", got)
	}
	_, r = h.command(carol, "duel-move", cmdMove, discordtest.StringOption(optCell, "zz"))
	if got := h.ephemeral(r, carol); got != render.T(render.English, render.MsgNoGame) {
		t.Errorf("/move zz by a stranger: %q", got)
	}
}
