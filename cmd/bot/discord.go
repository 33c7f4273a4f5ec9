package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"log/slog"
	"net"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/session"
)

// discordServer returns the Discord bot of the configuration, and sets
// its entry of onExpire, so that games the sweeper ends show it on their
// messages, and counts its updates and API errors in m. A
// discord.api_base changes discordgo's process-global endpoints. The
// interactions endpoint takes over the deferred interactions other
// replicas left on the ticks of reclaim (nil: a single process).
//
// With the web board on (web.listen), boards get a 🌐 button that gives
// the one who taps it their link (webLink), and the bot's dispatcher and
// front go into dispatchers and fronts for the moves made on the page.
func discordServer(cfg Config, svc *session.Service, log *slog.Logger, onExpire map[session.Platform]func(session.View), m *metrics, reclaim <-chan time.Time,
	interactions net.Listener, webLink func(session.Platform, session.GameID, string) string, dispatchers map[session.Platform]*adapters.Dispatcher, fronts adapters.Fronts) (server, error) {
	if cfg.Discord.APIBase != "" {
		if err := discord.SetAPIBase(cfg.Discord.APIBase); err != nil {
			return nil, err
		}
	}
	var link func(session.GameID, string) string
	if cfg.Web.forChats() {
		link = func(g session.GameID, user string) string { return webLink(discord.Platform, g, user) }
	}
	bot, err := discord.New(svc, discord.Config{
		WebLink:    link,
		Token:      string(cfg.Discord.Token),
		AppID:      cfg.Discord.AppID,
		GuildID:    cfg.Discord.GuildID,
		DeferAfter: cfg.Discord.DeferAfter,
		Log:        log.With("platform", "discord"),
		OnUpdate:   m.onUpdate(discord.Platform),
		OnAPIError: m.onAPIError(discord.Platform),
	})
	if err != nil {
		return nil, err
	}
	onExpire[discord.Platform] = bot.Expired
	dispatchers[discord.Platform] = adapters.NewDispatcher(svc, discord.Platform, "", log)
	fronts[discord.Platform] = bot.Front()
	in := cfg.Discord.Interactions
	if in.PublicKey != "" {
		key, _ := hex.DecodeString(in.PublicKey) // validated
		e, err := bot.Endpoint(discord.EndpointConfig{PublicKey: ed25519.PublicKey(key), Reclaim: reclaim})
		if err != nil {
			return nil, err
		}
		ln := interactions
		log.Info("serving Discord interactions over HTTP", "addr", ln.Addr().String(), "path", in.Path, "guild", cfg.Discord.GuildID)
		return func(ctx context.Context) error { return e.Serve(ctx, ln, in.Path) }, nil
	}
	log.Info("serving Discord", "guild", cfg.Discord.GuildID)
	return bot.Run, nil
}
