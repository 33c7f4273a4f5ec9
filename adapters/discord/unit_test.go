package discord

import (
	"errors"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// buttonsOf flattens action rows into buttons, checking their types.
func buttonsOf(t *testing.T, rows []discordgo.MessageComponent) [][]discordgo.Button {
	t.Helper()
	var out [][]discordgo.Button
	for _, r := range rows {
		ar, ok := r.(discordgo.ActionsRow)
		if !ok {
			t.Fatalf("component %T is not an action row", r)
		}
		var bs []discordgo.Button
		for _, c := range ar.Components {
			b, ok := c.(discordgo.Button)
			if !ok {
				t.Fatalf("component %T is not a button", c)
			}
			bs = append(bs, b)
		}
		out = append(out, bs)
	}
	return out
}

// checkLimits fails unless rows are within Discord's limits with unique
// custom_ids that decode to the callback data of kb's buttons.
func checkLimits(t *testing.T, rows [][]discordgo.Button) {
	t.Helper()
	if len(rows) > maxRows {
		t.Fatalf("%d rows", len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if len(r) == 0 || len(r) > maxRowButtons {
			t.Fatalf("row of %d buttons", len(r))
		}
		for _, b := range r {
			if b.CustomID == "" || len(b.CustomID) > maxCustomIDLen || seen[b.CustomID] {
				t.Fatalf("custom_id %q (duplicate %v)", b.CustomID, seen[b.CustomID])
			}
			seen[b.CustomID] = true
			if b.Label == "" || utf8.RuneCountInString(b.Label) > maxLabelLen {
				t.Fatalf("label %q", b.Label)
			}
			if _, err := adapters.DecodeAction(tapData(b.CustomID)); err != nil {
				t.Fatalf("custom_id %q does not decode: %v", b.CustomID, err)
			}
		}
	}
}

func TestComponentsKeepSmallBoardsWhole(t *testing.T) {
	kb := render.Keyboard{}
	for y := 0; y < 4; y++ {
		var row []render.Button
		for x := 0; x < 4; x++ {
			b := render.Button{Label: "·", Action: render.Action{Kind: render.Place, Game: "g1", MoveNo: 3, Cell: engine.Point{X: x, Y: y}}}
			if x == y {
				b = render.Button{Label: "❌"} // taken: a no-op
			}
			row = append(row, b)
		}
		kb.Rows = append(kb.Rows, row)
	}
	kb.Rows = append(kb.Rows, []render.Button{{Label: "🏳 Resign", Action: render.Action{Kind: render.Resign, Game: "g1"}}})
	comps, trimmed := components(kb)
	rows := buttonsOf(t, comps)
	if trimmed || len(rows) != 5 || len(rows[0]) != 4 || len(rows[4]) != 1 {
		t.Fatalf("trimmed %v, rows %d", trimmed, len(rows))
	}
	checkLimits(t, rows)
	for y, r := range rows[:4] {
		for x, b := range r {
			a, _ := adapters.DecodeAction(tapData(b.CustomID))
			if want := kb.Rows[y][x].Action; a != want || b.Disabled != (want.Kind == render.Noop) {
				t.Errorf("cell %d,%d: %q disabled %v decodes to %+v, want %+v", x, y, b.CustomID, b.Disabled, a, want)
			}
		}
	}
	if rows[4][0].Style != discordgo.DangerButton {
		t.Errorf("resign style %v", rows[4][0].Style)
	}
}

func TestComponentsLeaveOutBigBoards(t *testing.T) {
	kb := render.Keyboard{}
	for y := 0; y < 15; y++ {
		var row []render.Button
		for x := 0; x < 15; x++ {
			row = append(row, render.Button{Label: "·", Action: render.Action{Kind: render.Place, Game: "g", Cell: engine.Point{X: x, Y: y}}})
		}
		kb.Rows = append(kb.Rows, row)
	}
	kb.Rows = append(kb.Rows, []render.Button{{Label: "🏳", Action: render.Action{Kind: render.Resign, Game: "g"}}})
	comps, trimmed := components(kb)
	rows := buttonsOf(t, comps)
	if !trimmed || len(rows) != 1 || rows[0][0].CustomID != "r:g" {
		t.Fatalf("trimmed %v, rows %+v", trimmed, rows)
	}
}

func TestComponentsStayWithinLimitsForAnyKeyboard(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	kinds := []render.ActionKind{render.Noop, render.Place, render.Resign, render.Scroll, render.Rematch, render.Accept, render.Decline, render.Cancel}
	for i := 0; i < 500; i++ {
		var kb render.Keyboard
		for range rng.IntN(10) {
			var row []render.Button
			for range rng.IntN(9) {
				a := render.Action{Kind: kinds[rng.IntN(len(kinds))], Game: session.GameID(strings.Repeat("z", 1+rng.IntN(16)))}
				a.Cell = engine.Point{X: rng.IntN(19), Y: rng.IntN(19)}
				a.Window = engine.Point{X: rng.IntN(3), Y: rng.IntN(3)}
				if a.Kind == render.Noop {
					a = render.Action{}
				}
				row = append(row, render.Button{Label: strings.Repeat("é", rng.IntN(100)), Action: a})
			}
			kb.Rows = append(kb.Rows, row)
		}
		comps, _ := components(kb)
		checkLimits(t, buttonsOf(t, comps))
	}
}

func TestSetAPIBaseSetsEveryEndpoint(t *testing.T) {
	defaults := []string{discordgo.EndpointGateway, discordgo.EndpointGatewayBot, discordgo.EndpointApplicationGlobalCommands("a"),
		discordgo.EndpointInteractionResponse("i", "t"), discordgo.EndpointFollowupMessage("a", "t"), discordgo.EndpointInteractionResponseActions("a", "t"),
		discordgo.EndpointChannelMessage("c", "m"), discordgo.EndpointOAuth2Application("a"), discordgo.EndpointUser("u")}
	const base = "http://127.0.0.1:9/"
	if err := SetAPIBase(strings.TrimSuffix(base, "/")); err != nil {
		t.Fatal(err)
	}
	api := base + "api/v" + discordgo.APIVersion + "/"
	for _, u := range []string{discordgo.EndpointGateway, discordgo.EndpointGatewayBot, discordgo.EndpointApplicationGlobalCommands("a"),
		discordgo.EndpointApplicationGuildCommands("a", "g"), discordgo.EndpointInteractionResponse("i", "t"),
		discordgo.EndpointFollowupMessage("a", "t"), discordgo.EndpointInteractionResponseActions("a", "t"),
		discordgo.EndpointChannelMessage("c", "m"), discordgo.EndpointChannelMessages("c"), discordgo.EndpointOAuth2Application("a"),
		discordgo.EndpointOauth2Application("a"), discordgo.EndpointUser("u"), discordgo.EndpointGuildCreate, discordgo.EndpointVoiceRegions} {
		if !strings.HasPrefix(u, api) {
			t.Errorf("%s is not under %s", u, api)
		}
	}
	for _, bad := range []string{"", "discord.com", "ftp://x/", "http://", "http://x/?a=b"} {
		if SetAPIBase(bad) == nil {
			t.Errorf("SetAPIBase(%q) accepted", bad)
		}
	}
	if err := SetAPIBase(DefaultAPIBase); err != nil {
		t.Fatal(err)
	}
	again := []string{discordgo.EndpointGateway, discordgo.EndpointGatewayBot, discordgo.EndpointApplicationGlobalCommands("a"),
		discordgo.EndpointInteractionResponse("i", "t"), discordgo.EndpointFollowupMessage("a", "t"), discordgo.EndpointInteractionResponseActions("a", "t"),
		discordgo.EndpointChannelMessage("c", "m"), discordgo.EndpointOAuth2Application("a"), discordgo.EndpointUser("u")}
	for i := range defaults {
		if defaults[i] != again[i] {
			t.Errorf("default base gives %s, discordgo's own %s", again[i], defaults[i])
		}
	}
}

func TestCommandText(t *testing.T) {
	str := func(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
	}
	user := &discordgo.ApplicationCommandInteractionDataOption{Name: optOpponent, Type: discordgo.ApplicationCommandOptionUser, Value: "42"}
	for _, tt := range []struct {
		data           discordgo.ApplicationCommandInteractionData
		text, opponent string
	}{
		{discordgo.ApplicationCommandInteractionData{Name: cmdPlay}, "/play", ""},
		{discordgo.ApplicationCommandInteractionData{Name: cmdPlay, Options: []*discordgo.ApplicationCommandInteractionDataOption{
			str(optSide, "second"), str(optGame, "gomoku"), str(optLevel, "hard")}}, "/play hard gomoku second", ""},
		{discordgo.ApplicationCommandInteractionData{Name: cmdPlay, Options: []*discordgo.ApplicationCommandInteractionDataOption{
			str(optGame, "7x7"), user}}, "/duel 7x7", "42"},
		{discordgo.ApplicationCommandInteractionData{Name: cmdLang, Options: []*discordgo.ApplicationCommandInteractionDataOption{str(optLanguage, "zh")}}, "/lang zh", ""},
		{discordgo.ApplicationCommandInteractionData{Name: cmdResign}, "/resign", ""},
		{discordgo.ApplicationCommandInteractionData{Name: cmdTop}, "/top", ""},
		{discordgo.ApplicationCommandInteractionData{Name: cmdPlay, Options: []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: optLevel, Type: discordgo.ApplicationCommandOptionInteger, Value: 3.0}}}, "/play", ""},
	} {
		text, opp := commandText(tt.data)
		if text != tt.text || opp != tt.opponent {
			t.Errorf("commandText(%+v) = %q, %q; want %q, %q", tt.data, text, opp, tt.text, tt.opponent)
		}
	}
}

func TestCommandChoicesParse(t *testing.T) {
	// Every choice of /play is a word the shared grammar accepts.
	for _, c := range Commands() {
		if c.Name != cmdPlay {
			continue
		}
		for _, o := range c.Options {
			for _, ch := range o.Choices {
				text := "/play " + ch.Value.(string)
				if _, err := adapters.ParseCommand(text, ""); err != nil {
					t.Errorf("choice %s of %s: %q: %v", ch.Name, o.Name, text, err)
				}
				if ch.NameLocalizations[discordgo.ChineseCN] == "" {
					t.Errorf("choice %s of %s has no Chinese name", ch.Name, o.Name)
				}
			}
			if o.DescriptionLocalizations[discordgo.ChineseCN] == "" {
				t.Errorf("option %s has no Chinese description", o.Name)
			}
		}
	}
}

func TestRedactKeepsTokensOutAndUnwraps(t *testing.T) {
	b := &Bot{cfg: Config{Token: "bot-secret"}}
	base := errors.New(`Post "https://x/interactions/1/int-secret/callback": bot-secret refused`)
	err := b.redact(base, &discordgo.Interaction{Token: "int-secret"})
	if strings.Contains(err.Error(), "secret") || !errors.Is(err, base) {
		t.Fatalf("redacted %q, unwraps %v", err, errors.Is(err, base))
	}
}

func TestLargestBoardMessagesFitDiscord(t *testing.T) {
	svc := session.New(mustStore(t), nil)
	long := strings.Repeat("名", 40)
	for _, game := range []string{"gomoku19", "gomoku", "7x7"} {
		r, _ := engine.Preset(game)
		v, err := svc.Begin(t.Context(), session.Request{Actor: session.Actor{Platform: Platform, Chat: game, User: session.User{ID: "1", Name: long}}}).Start(session.StartRequest{Rules: r, Level: engine.Easy})
		if err != nil {
			t.Fatal(err)
		}
		b := &Bot{log: slog.New(slog.DiscardHandler)}
		for _, l := range []render.Lang{render.English, render.Chinese} {
			p := b.post(v, l, render.T(l, render.MsgAlreadyPlaying), nil)
			if n := utf8.RuneCountInString(p.content); n > maxContentLen || strings.HasSuffix(p.content, "…") {
				t.Errorf("%s in %s: %d characters, clipped %v", game, l, n, strings.HasSuffix(p.content, "…"))
			}
			if !strings.Contains(p.content, render.Status(v, l)) || len(p.picture) == 0 || len(p.files()) != 1 {
				t.Errorf("%s in %s: no status line or no picture", game, l)
			}
		}
	}
}

// mustStore opens a bbolt store in a temporary directory.
func mustStore(t *testing.T) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestResolvedUserPrefersNickThenGlobalName(t *testing.T) {
	data := discordgo.ApplicationCommandInteractionData{Resolved: &discordgo.ApplicationCommandInteractionDataResolved{
		Users: map[string]*discordgo.User{
			"1": {ID: "1", Username: "bob_b", GlobalName: "Bob"},
			"2": {ID: "2", Username: "carol_c"},
			"3": {ID: "3", Username: "helper", Bot: true},
		},
		Members: map[string]*discordgo.Member{"1": {Nick: "Bobby"}},
	}}
	for id, want := range map[string]member{
		"1": {User: session.User{ID: "1", Name: "Bobby", Handle: "bob_b"}},
		"2": {User: session.User{ID: "2", Name: "carol_c", Handle: "carol_c"}},
		"3": {User: session.User{ID: "3", Name: "helper", Handle: "helper"}, Bot: true},
		"4": {User: session.User{ID: "4"}},
	} {
		if got := resolvedUser(data, id); got != want {
			t.Errorf("resolvedUser(%s) = %+v, want %+v", id, got, want)
		}
	}
	if got := resolvedUser(discordgo.ApplicationCommandInteractionData{}, "5"); got != (member{User: session.User{ID: "5"}}) {
		t.Errorf("without resolved data: %+v", got)
	}
}

func TestRequestNamesTheUserByTheFirstVisibleName(t *testing.T) {
	for _, c := range []struct {
		nick, global, username, want string
	}{
		{"Nick", "Global", "user", "Nick"},
		{"\u200b\u200b", "Glo\x1b[1mbal", "user", "Glo[1mbal"},
		{"", "\u3164", "user", "user"},
		{"\u200b", "", "", ""},
	} {
		i := &discordgo.Interaction{ChannelID: "c", Member: &discordgo.Member{Nick: c.nick, User: &discordgo.User{ID: "42", GlobalName: c.global, Username: c.username}}}
		req, ok := request(i)
		if !ok || req.User.Name != c.want {
			t.Errorf("nick %+q global %+q username %+q: name %+q (ok %v), want %+q", c.nick, c.global, c.username, req.User.Name, ok, c.want)
		}
	}
}

func TestRenjuIsAGameChoice(t *testing.T) {
	for _, c := range Commands() {
		if c.Name != cmdPlay {
			continue
		}
		for _, o := range c.Options {
			for _, ch := range o.Choices {
				if ch.Value == "renju" {
					if ch.Name != "Renju 15×15" || ch.NameLocalizations[discordgo.ChineseCN] != "连珠 15×15" {
						t.Errorf("renju choice named %q / %q", ch.Name, ch.NameLocalizations[discordgo.ChineseCN])
					}
					return
				}
			}
		}
	}
	t.Error("/play offers no renju game")
}

func TestGamesIsASlashCommand(t *testing.T) {
	for _, c := range Commands() {
		if c.Name != cmdGames {
			continue
		}
		if c.Description != render.T(render.English, render.MsgMenuGames) || c.DescriptionLocalizations == nil || (*c.DescriptionLocalizations)[discordgo.ChineseCN] != render.T(render.Chinese, render.MsgMenuGames) {
			t.Errorf("/games described %q / %v", c.Description, c.DescriptionLocalizations)
		}
		if text, _ := commandText(discordgo.ApplicationCommandInteractionData{Name: cmdGames}); text != "/"+adapters.CmdGames {
			t.Errorf("/games is %q in the grammar", text)
		}
		return
	}
	t.Error("no /games slash command")
}
