package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

func TestRunServesDiscord(t *testing.T) {
	const token = "MTAy.fake-discord-token.never-print"
	fake := discordtest.New(discordtest.Options{Token: token})
	defer fake.Close()
	defer discord.SetAPIBase(discord.DefaultAPIBase)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	yaml := fmt.Sprintf("discord:\n  app_id: %q\n  guild_id: %q\n  api_base: %q\n", discordtest.AppID, discordtest.GuildID, fake.URL)
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", cfgPath, "-db", filepath.Join(dir, "bot.db")},
			env(map[string]string{"DISCORD_TOKEN": token, "BOT_LOG_LEVEL": "debug"}), strings.NewReader(""), &out, &errOut)
	}()
	if err := fake.WaitFor(20*time.Second, "guild commands", func() bool { return len(fake.Commands(discordtest.GuildID)) > 0 }); err != nil {
		t.Fatal(err)
	}
	id, err := fake.Command(discordtest.User{ID: "1", Name: "ann"}, "c", "play")
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitFor(20*time.Second, "the board", func() bool { return fake.Response(id).Type == 4 }); err != nil {
		t.Fatal(err)
	}
	m, _ := fake.Message(fake.Response(id).Original)
	if !strings.Contains(m.Content, "ann  vs") || len(m.Rows) != 4 {
		t.Errorf("board %+v", m)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	if all := out.String() + errOut.String(); strings.Contains(all, "fake-discord-token") {
		t.Fatalf("token printed:\n%s", all)
	}
}

func TestDiscordServerShowsExpiredGames(t *testing.T) {
	const token = "MTAz.fake-discord-token.never-print"
	fake := discordtest.New(discordtest.Options{Token: token})
	defer fake.Close()
	defer discord.SetAPIBase(discord.DefaultAPIBase)
	r := newExpiryRig(t)
	store, svc, onExpire := r.store, r.svc, r.onExpire
	var cfg Config
	cfg.Discord.Token, cfg.Discord.AppID, cfg.Discord.APIBase = Secret(token), discordtest.AppID, fake.URL
	serve, err := discordServer(cfg, svc, slog.New(slog.DiscardHandler), onExpire, newMetrics(liveCount(store)), nil, nil, nil, map[session.Platform]*adapters.Dispatcher{}, adapters.Fronts{})
	if err != nil {
		t.Fatal(err)
	}
	if onExpire[discord.Platform] == nil {
		t.Fatal("no onExpire entry for Discord")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	if err := fake.WaitFor(20*time.Second, "commands", func() bool { return len(fake.Commands("")) > 0 }); err != nil {
		t.Fatal(err)
	}
	id, err := fake.Command(discordtest.User{ID: "1", Name: "ann"}, "c", "play")
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitFor(20*time.Second, "the board", func() bool { return fake.Response(id).Type == 4 }); err != nil {
		t.Fatal(err)
	}
	// The bot binds the board to the game after posting it; bind it here
	// too (the same message), so that the sweep surely sees it.
	v, err := svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: discord.Platform, Chat: "c", User: session.User{ID: "1"}}}).Running()
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Bind(ctx, session.Binding{Game: v.ID(), Message: fake.Response(id).Original}); err != nil {
		t.Fatal(err)
	}
	r.advance(session.DefaultIdleAI)
	if n, err := svc.Sweep(ctx); n != 1 || err != nil {
		t.Fatalf("sweep ended %d: %v", n, err)
	}
	m, _ := fake.Message(fake.Response(id).Original)
	if m.Edits != 1 || !strings.Contains(m.Content, render.T(render.English, render.MsgExpired)) {
		t.Errorf("board after the sweep: %+v", m)
	}
}
