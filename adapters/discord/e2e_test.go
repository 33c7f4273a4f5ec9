package discord

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
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
			Options                  []struct {
				Name string `json:"name"`
				Type int    `json:"type"`
			} `json:"options"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		names = append(names, c.Name)
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
	if got := strings.Join(names, " "); got != "play move resign stats top lang help" {
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
				if !b.Disabled {
					t.Errorf("button %+v still live after the game", b)
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
