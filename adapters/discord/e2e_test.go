package discord

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

func TestRegistersCommandsAndKeepsTheGatewayAlive(t *testing.T) {
	h := newHarness(t, nil)
	cmds := h.fake.Commands("")
	var names []string
	for _, raw := range cmds {
		var c struct {
			Name                     string            `json:"name"`
			DescriptionLocalizations map[string]string `json:"description_localizations"`
			DefaultMemberPermissions *string           `json:"default_member_permissions"`
			Options                  []struct {
				Name string `json:"name"`
				Type int    `json:"type"`
			} `json:"options"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		names = append(names, c.Name)
		// Only /chatlang is for the members who may manage the channel.
		if perms := c.DefaultMemberPermissions; (c.Name == cmdChatLang) != (perms != nil && *perms == "16") {
			t.Errorf("/%s default member permissions %v", c.Name, perms)
		}
		if c.DescriptionLocalizations["zh-CN"] == "" {
			t.Errorf("/%s has no Chinese description", c.Name)
		}
		if c.Name == cmdPlay {
			types := map[string]int{}
			for _, o := range c.Options {
				types[o.Name] = o.Type
			}
			if types[optLevel] != 3 || types[optGame] != 3 || types[optOpponent] != 6 || types[optSide] != 3 {
				t.Errorf("/play options %+v", c.Options)
			}
		}
	}
	if got := strings.Join(names, " "); got != "play move resign undo hint games stats history export top lang chatlang help" {
		t.Errorf("registered %q", got)
	}
	if len(h.fake.Commands(discordtest.GuildID)) != 0 {
		t.Error("commands registered on a guild without discord.guild_id")
	}
	if err := h.fake.WaitFor(waitLimit, "a heartbeat", func() bool { return h.fake.Heartbeats() > 0 }); err != nil {
		t.Fatal(err)
	}
	if c := h.fake.Connects(); len(c) != 1 || c[0].Resume || !c[0].Compress {
		t.Errorf("connects %+v, want one compressed IDENTIFY", c)
	}
}

func TestGuildCommands(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.GuildID = discordtest.GuildID })
	if len(h.fake.Commands(discordtest.GuildID)) != len(Commands()) || len(h.fake.Commands("")) != 0 {
		t.Fatalf("guild %d, global %d commands", len(h.fake.Commands(discordtest.GuildID)), len(h.fake.Commands("")))
	}
}

func TestWholeGamesOnThreeByThree(t *testing.T) {
	h := newHarness(t, nil)
	for _, level := range []string{"easy", "medium", "hard"} {
		t.Run(level, func(t *testing.T) {
			channel := "ch-" + level
			m := h.play(ann, channel, discordtest.StringOption(optLevel, level))
			if len(m.Rows) != 4 || len(m.Rows[0]) != 3 || !strings.Contains(m.Content, "AI ("+level+")") {
				t.Fatalf("board %+v", m)
			}
			game := gameOf(t, m)
			for moves := 0; ; moves++ {
				live := placeButtons(m)
				if len(live) == 0 {
					break
				}
				if moves > 5 {
					t.Fatalf("game did not end: %+v", m)
				}
				r := h.tap(ann, m.ID, live[0])
				if r.Type != 7 || r.Original != m.ID {
					t.Fatalf("tap answered %+v, want an in-place update of %s", r, m.ID)
				}
				m = h.message(m.ID)
			}
			v, err := h.svc.Game(t.Context(), game)
			if err != nil || v.Status() == session.Running {
				t.Fatalf("game %v, %v", v.Status(), err)
			}
			if !strings.Contains(m.Content, render.Status(v, render.English)) {
				t.Errorf("final board does not say how it ended:\n%s", m.Content)
			}
			for _, b := range m.Buttons() {
				if !b.Disabled && !strings.HasPrefix(b.CustomID, "R:") && !strings.HasPrefix(b.CustomID, "v:") && !strings.HasPrefix(b.CustomID, "e:") {
					t.Errorf("button %+v other than rematch, replay and export still live after the game", b)
				}
			}
		})
	}
}

// gameOf returns the game id carried by a board message's buttons.
func gameOf(t *testing.T, m discordtest.Message) session.GameID {
	t.Helper()
	for _, b := range m.Buttons() {
		if f := strings.Split(tapData(b.CustomID), ":"); len(f) >= 2 && f[0] != "n" {
			return session.GameID(f[1])
		}
	}
	t.Fatalf("no game on %+v", m)
	return ""
}

// nextCell returns the empty cell of a game nearest the centre.
func nextCell(v session.View) string {
	r := v.Rules()
	b := v.Board()
	best, bestD := engine.Point{X: -1}, 1<<30
	for y := 0; y < r.Height; y++ {
		for x := 0; x < r.Width; x++ {
			p := engine.Point{X: x, Y: y}
			dx, dy := 2*x-(r.Width-1), 2*y-(r.Height-1)
			if d := dx*dx + dy*dy; b.At(p) == engine.Empty && d < bestD {
				best, bestD = p, d
			}
		}
	}
	return render.FormatCoord(best, r)
}

func TestWholeGamesOnGomokuByMove(t *testing.T) {
	h := newHarness(t, nil)
	for _, level := range []string{"easy", "medium", "hard"} {
		t.Run(level, func(t *testing.T) {
			channel := "gomoku-" + level
			board := h.play(ann, channel, discordtest.StringOption(optLevel, level), discordtest.StringOption(optGame, "gomoku"))
			if len(board.Rows) != 5 || len(placeButtons(board)) == 0 || !strings.Contains(board.Content, render.T(render.English, render.MsgTypeMoves)) {
				t.Fatalf("gomoku board %+v: want a window of cells, the arrows and the /move hint", board)
			}
			who := session.Actor{Platform: Platform, Chat: channel, User: session.User{ID: ann.ID}}
			var v session.View
			for moves := 0; ; moves++ {
				running, err := h.svc.Begin(t.Context(), session.Request{Actor: who}).Running()
				if err != nil {
					break
				}
				v = running
				if moves > 113 {
					t.Fatal("game did not end")
				}
				edits := h.message(board.ID).Edits
				_, r := h.command(ann, channel, cmdMove, discordtest.StringOption(optCell, nextCell(v)))
				if level == "hard" && r.Type != 5 {
					t.Fatalf("/move against hard answered %+v, want a deferred answer", r)
				}
				if level != "hard" && r.Type != 4 {
					t.Fatalf("/move answered %+v, want a message", r)
				}
				h.ephemeral(r, ann)
				if m := h.message(board.ID); m.Edits != edits+1 {
					t.Fatalf("board edited %d times after move %d, want %d", m.Edits, moves, edits+1)
				}
			}
			v, err := h.svc.Game(t.Context(), v.ID())
			if err != nil || v.Status() == session.Running {
				t.Fatalf("game %v, %v", v.Status(), err)
			}
			m := h.message(board.ID)
			if !strings.Contains(m.Content, render.Status(v, render.English)) {
				t.Errorf("final board:\n%s", m.Content)
			}
			for _, b := range m.Buttons() {
				if !b.Disabled && !strings.HasPrefix(b.CustomID, "R:") && !strings.HasPrefix(b.CustomID, "s:") {
					t.Errorf("button %+v is live on the finished board", b)
				}
			}
		})
	}
}

func TestStaleTapIsRefusedPrivately(t *testing.T) {
	h := newHarness(t, nil)
	old := h.play(ann, "c", discordtest.StringOption(optLevel, "easy"))
	ids := placeButtons(old)
	h.tap(ann, old.ID, ids[0])
	now := h.message(old.ID)
	// A second tap on the board as it was before the first one landed.
	var stale string
	for _, id := range ids[1:] {
		cell := strings.Join(strings.Split(id, ":")[3:], ":")
		if containsCell(placeButtons(now), cell) {
			stale = id
			break
		}
	}
	id, err := h.fake.TapForged(ann, old.ID, stale)
	if err != nil {
		t.Fatal(err)
	}
	h.await(id)
	r := h.fake.Response(id)
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgStale) {
		t.Errorf("stale tap answered %q", got)
	}
	// The stale tap may redraw the board (it catches up a board left
	// behind by a crash), but what it shows is the game as it is.
	if m := h.message(old.ID); m.Content != now.Content || !slices.Equal(placeButtons(m), placeButtons(now)) {
		t.Errorf("stale tap changed the board")
	}
}

// containsCell reports whether a place button of ids is at cell "x:y".
func containsCell(ids []string, cell string) bool {
	for _, id := range ids {
		if strings.HasSuffix(id, ":"+cell) {
			return true
		}
	}
	return false
}

func TestThirdMemberGetsPrivateRefusalInTheirLanguage(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c")
	r := h.tap(bob, board.ID, placeButtons(board)[0])
	if r.Type != 4 {
		t.Fatalf("answered %+v, want an ephemeral message", r)
	}
	if got := h.ephemeral(r, bob); got != render.T(render.Chinese, render.MsgNotAPlayer) {
		t.Errorf("bob (zh-CN) was told %q", got)
	}
	if m := h.message(board.ID); m.Edits != 0 {
		t.Error("a stranger's tap changed the board")
	}
}

func TestForgedButtonIsRefused(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c")
	for _, data := range []string{"p:zz:0:9:9", "garbage", strings.Repeat("x", 100), "n#0"} {
		id, err := h.fake.TapForged(ann, board.ID, data)
		if err != nil {
			t.Fatal(err)
		}
		h.await(id)
		r := h.fake.Response(id)
		if r.Type == 0 {
			t.Errorf("tap %q not answered", data)
		}
	}
	if m := h.message(board.ID); m.Edits != 0 {
		t.Error("forged taps changed the board")
	}
}

func TestRestartContinuesOnTheOldMessage(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optLevel, "hard"))
	h.tap(ann, board.ID, placeButtons(board)[0])
	before := h.message(board.ID)
	h.stop()
	h.boot()
	r := h.tap(ann, board.ID, placeButtons(before)[0])
	after := h.message(board.ID)
	if r.Type != 7 || after.Edits != before.Edits+1 || len(placeButtons(after)) >= len(placeButtons(before)) {
		t.Fatalf("tap after restart: %+v\nbefore %+v\nafter %+v", r, before, after)
	}
	if c := h.fake.Connects(); len(c) != 2 {
		t.Errorf("connects %+v", c)
	}
}

func TestRateLimitedCallbackIsRetried(t *testing.T) {
	h := newHarness(t, nil)
	// retry_after 0: discordgo sleeps retry_after and repeats the request
	// in the same bucket; the test checks the repeat, not the clock.
	h.fake.RateLimit("POST", "interactions/", 1, 0)
	board := h.play(ann, "c")
	var statuses []int
	for _, c := range h.fake.Calls() {
		if strings.HasPrefix(c.Path, "interactions/") {
			statuses = append(statuses, c.Status)
		}
	}
	if len(statuses) != 2 || statuses[0] != 429 || statuses[1] != 204 {
		t.Fatalf("callback statuses %v, want 429 then 204", statuses)
	}
	if len(placeButtons(board)) != 9 {
		t.Errorf("board after the retry: %+v", board)
	}
}

func TestSlowHardMoveIsDeferredThenEdited(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optLevel, "hard"), discordtest.StringOption(optGame, "5x5"))
	gate := make(chan struct{})
	h.mu.Lock()
	h.gate = gate
	h.mu.Unlock()
	id, err := h.fake.Command(ann, "c", cmdMove, discordtest.StringOption(optCell, "c3"))
	if err != nil {
		t.Fatal(err)
	}
	// The AI is held at the gate: the answer must be a deferral.
	if err := h.fake.WaitFor(waitLimit, "the deferral", func() bool { return h.fake.Response(id).Type == 5 }); err != nil {
		t.Fatal(err)
	}
	if m := h.message(board.ID); m.Edits != 0 {
		t.Fatal("board edited before the AI moved")
	}
	close(gate)
	h.await(id)
	r := h.fake.Response(id)
	if p, _ := h.fake.Message(r.Original); !p.Deleted {
		t.Errorf("the public placeholder %+v stays", p)
	}
	h.ephemeral(r, ann)
	m := h.message(board.ID)
	// One ⭕ in the header, the AI's stone marked 🅾️ on the board, and one
	// ⭕ in the "Last move" line.
	if m.Edits != 1 || strings.Count(m.Content, "⭕")+strings.Count(m.Content, "🅾️") != 3 {
		t.Errorf("board after the deferred move:\n%s", m.Content)
	}
	five, _ := engine.Preset("5x5")
	if a := picture(t, m, five); a.ID == board.Attachments[0].ID {
		t.Error("the deferred move kept the old picture")
	}
}

func TestTapStillRunningAtTheDeadlineIsDeferred(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c")
	id := h.tapDeferred(board, placeButtons(board)[4])
	m := h.message(board.ID)
	if r := h.fake.Response(id); r.Original != board.ID || m.Edits != 1 || len(placeButtons(m)) != 7 {
		t.Errorf("after the deferred tap: %+v %+v", r, m)
	}
}

func TestBotsCannotBeChallenged(t *testing.T) {
	h := newHarness(t, nil)
	_, r := h.command(ann, "c", cmdPlay, discordtest.UserOption(optOpponent, robot))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgBotOpponent) {
		t.Errorf("challenging a bot answered %q", got)
	}
}

func TestReconnectResumesTheSession(t *testing.T) {
	h := newHarness(t, nil)
	first := h.fake.Connects()
	h.fake.DropConnection()
	err := h.fake.WaitFor(waitLimit, "a resumed session", func() bool {
		c := h.fake.Connects()
		return h.fake.Connected() && len(c) == 2 && c[1].Resume
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := h.fake.Connects(); len(first) != 1 || c[1].SessionID == "" {
		t.Fatalf("connects %+v", c)
	}
	board := h.play(ann, "c")
	if len(placeButtons(board)) != 9 {
		t.Errorf("board after resuming: %+v", board)
	}
}

func TestChineseClientGetsAChineseBoard(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(bob, "c", discordtest.StringOption(optGame, "4x4"))
	if !strings.Contains(board.Content, "轮到") || len(board.Rows) != 5 || len(placeButtons(board)) != 16 {
		t.Fatalf("board for a zh-CN client:\n%s\n%+v", board.Content, board.Rows)
	}
	if b := board.Rows[4][0]; b.Label != render.T(render.Chinese, render.MsgResignButton) {
		t.Errorf("resign button %q", b.Label)
	}
}

func TestResignByCommandEditsTheBoard(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c")
	_, r := h.command(ann, "c", cmdResign)
	note := h.ephemeral(r, ann)
	m := h.message(board.ID)
	if m.Edits != 1 || !strings.Contains(m.Content, note) || len(placeButtons(m)) != 0 {
		t.Fatalf("after /resign (told %q): %+v", note, m)
	}
	_, r = h.command(ann, "c", cmdResign)
	// The game on screen has ended: it says so.
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgTypedGameOver) {
		t.Errorf("second /resign: %q", got)
	}
}

func TestMoveOnADeletedBoardPostsItAgain(t *testing.T) {
	h := newHarness(t, nil)
	board := h.play(ann, "c")
	h.fake.DeleteMessage(board.ID)
	_, r := h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, "b2"))
	again, ok := h.fake.Message(r.Original)
	if r.Type != 4 || !ok || again.Ephemeral || again.ID == board.ID || len(placeButtons(again)) != 7 {
		t.Fatalf("after /move on a deleted board: %+v %+v", r, again)
	}
	// The new message is the game's board from now on.
	h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, nextCellOf(t, h, "c")))
	if m := h.message(again.ID); m.Edits != 1 {
		t.Errorf("the reposted board was not edited by the next move: %+v", m)
	}
}

// nextCellOf returns a free cell of ann's running game in channel.
func nextCellOf(t *testing.T, h *harness, channel string) string {
	t.Helper()
	v, err := h.svc.Begin(t.Context(), session.Request{Actor: session.Actor{Platform: Platform, Chat: channel, User: session.User{ID: ann.ID}}}).Running()
	if err != nil {
		t.Fatal(err)
	}
	return nextCell(v)
}

func TestMoveRefusalsArePrivate(t *testing.T) {
	h := newHarness(t, nil)
	_, r := h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, "b2"))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgNoGame) {
		t.Errorf("/move without a game: %q", got)
	}
	h.play(ann, "c")
	for _, cell := range []string{"z9", "hello", "b2b2b2"} {
		_, r := h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, cell))
		if got := h.ephemeral(r, ann); !strings.Contains(got, cell) {
			t.Errorf("/move %s: %q", cell, got)
		}
	}
}

func TestEveryCommandIsAnswered(t *testing.T) {
	// /stats, /top, /lang and duels go to the shared grammar as text:
	// whatever it answers, the user gets an answer.
	h := newHarness(t, nil)
	for _, c := range []struct {
		name string
		opts []discordtest.Option
	}{
		{cmdStats, nil}, {cmdTop, nil}, {cmdHelp, nil},
		{cmdLang, []discordtest.Option{discordtest.StringOption(optLanguage, "zh")}},
		{cmdPlay, []discordtest.Option{discordtest.UserOption(optOpponent, bob)}},
		{"dance", nil},
	} {
		id, r := h.command(ann, "c-"+c.name, c.name, c.opts...)
		if r.Type != 4 {
			t.Errorf("/%s (%s) answered %+v", c.name, id, r)
			continue
		}
		if m, _ := h.fake.Message(r.Original); m.Content == "" || (m.Ephemeral && m.VisibleTo != ann.ID) {
			t.Errorf("/%s answered %+v", c.name, m)
		}
	}
}

func BenchmarkPlayAndTap(b *testing.B) {
	h := newHarness(b, nil)
	for i := 0; b.Loop(); i++ {
		channel := "bench-" + strconv.Itoa(i)
		board := h.play(ann, channel, discordtest.StringOption(optLevel, "hard"))
		h.tap(ann, board.ID, placeButtons(board)[4])
	}
}

func TestApplicationIDFromReady(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.AppID = "" })
	if len(h.fake.Commands("")) != len(Commands()) {
		t.Fatalf("%d commands registered", len(h.fake.Commands("")))
	}
}

func TestSlowFirstMoveOfTheAIIsDeferredThenPosted(t *testing.T) {
	h := newHarness(t, nil)
	gate := make(chan struct{})
	h.mu.Lock()
	h.gate = gate
	h.mu.Unlock()
	id, err := h.fake.Command(ann, "c", cmdPlay, discordtest.StringOption(optLevel, "hard"),
		discordtest.StringOption(optGame, "7x7"), discordtest.StringOption(optSide, "second"))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.fake.WaitFor(waitLimit, "the deferral", func() bool { return h.fake.Response(id).Type == 5 }); err != nil {
		t.Fatal(err)
	}
	close(gate)
	h.await(id)
	board := h.message(h.fake.Response(id).Original)
	if board.Loading || board.Ephemeral || board.Deleted || !strings.Contains(board.Content, "⚫") {
		t.Fatalf("board after the deferred start: %+v", board)
	}
	seven, _ := engine.Preset("7x7")
	picture(t, board, seven)
	// The posted board is bound to the game: the next move edits it.
	h.command(ann, "c", cmdMove, discordtest.StringOption(optCell, nextCellOf(t, h, "c")))
	if m := h.message(board.ID); m.Edits != 2 {
		t.Errorf("board edited %d times, want 2 (posted, then the move)", m.Edits)
	}
}

func TestConcurrentGamesInManyChannels(t *testing.T) {
	h := newHarness(t, nil)
	const players = 8
	errs := make(chan error, players)
	for p := range players {
		go func() {
			errs <- func() error {
				u := discordtest.User{ID: "2000000000000000" + strconv.Itoa(10+p), Name: "p" + strconv.Itoa(p)}
				channel := "multi-" + strconv.Itoa(p)
				wait := func(id string, err error) (discordtest.Response, error) {
					if err != nil {
						return discordtest.Response{}, err
					}
					select {
					case <-h.handledChan(id):
						return h.fake.Response(id), nil
					case <-time.After(waitLimit):
						return discordtest.Response{}, fmt.Errorf("%s: interaction %s not handled", u.Name, id)
					}
				}
				r, err := wait(h.fake.Command(u, channel, cmdPlay, discordtest.StringOption(optLevel, "medium")))
				if err != nil {
					return err
				}
				board := r.Original
				for moves := 0; ; moves++ {
					m, _ := h.fake.Message(board)
					live := placeButtons(m)
					if len(live) == 0 {
						return nil
					}
					if moves > 5 {
						return fmt.Errorf("%s: game did not end", u.Name)
					}
					r, err := wait(h.fake.Tap(u, board, live[len(live)/2]))
					if err != nil {
						return err
					}
					if r.Type != 7 {
						return fmt.Errorf("%s: tap answered %+v", u.Name, r)
					}
				}
			}()
		}()
	}
	for range players {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestDeferralFollowsTheAIPoolRule checks that a tap is deferred at once
// exactly when the AI answers with a search of the AI pool
// (session.Expensive): hard on 5×5, not on 4×4.
func TestDeferralFollowsTheAIPoolRule(t *testing.T) {
	h := newHarness(t, nil)
	for _, tt := range []struct {
		game string
		want int
	}{
		{"4x4", 7}, // an update of the message, at once
		{"5x5", 6}, // a deferred update, then an edit
	} {
		board := h.play(ann, "defer-"+tt.game, discordtest.StringOption(optLevel, "hard"), discordtest.StringOption(optGame, tt.game))
		if r := h.tap(ann, board.ID, placeButtons(board)[0]); r.Type != tt.want {
			t.Errorf("hard %s: tap answered %+v, want type %d", tt.game, r, tt.want)
		}
	}
}

// TestChatLangByMembersWhoManage checks /chatlang through the gateway: a
// member without Manage Server or Manage Channels is refused (a server may
// show the command to anyone), one with Manage Server sets the channel's
// language, which then answers a member with no /lang whose client is in
// English.
func TestChatLangByMembersWhoManage(t *testing.T) {
	h := newHarness(t, nil)
	boss := discordtest.User{ID: "900", Name: "boss", Locale: "en-US", Permissions: discordgo.PermissionManageGuild}
	_, r := h.command(ann, "cl", cmdChatLang, discordtest.StringOption(optLanguage, "zh"))
	if got := h.ephemeral(r, ann); got != render.T(render.English, render.MsgChatLangAdmin) {
		t.Fatalf("/chatlang by a member: %q", got)
	}
	_, r = h.command(boss, "cl", cmdChatLang, discordtest.StringOption(optLanguage, "zh"))
	if got := h.ephemeral(r, boss); got != render.T(render.Chinese, render.MsgChatLangSet, "中文") {
		t.Fatalf("/chatlang by a manager: %q", got)
	}
	_, r = h.command(ann, "cl", cmdHelp)
	if got := h.ephemeral(r, ann); !strings.Contains(got, render.T(render.Chinese, render.MsgHelpChatLang)) {
		t.Fatalf("help in the channel's language:\n%s", got)
	}
	_, r = h.command(ann, "other", cmdHelp)
	if got := h.ephemeral(r, ann); strings.Contains(got, render.T(render.Chinese, render.MsgHelpChatLang)) {
		t.Fatalf("another channel took the language:\n%s", got)
	}
}
