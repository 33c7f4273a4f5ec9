package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/session"
)

// discordServer returns the Discord bot of the configuration, and sets
// its entry of onExpire, so that games the sweeper ends show it on their
// messages, and counts its updates and API errors in m. A
// discord.api_base changes discordgo's process-global endpoints. The
// interactions endpoint takes over the deferred interactions other
// replicas left on the ticks of reclaim (nil: a single process).
func discordServer(cfg Config, svc *session.Service, log *slog.Logger, onExpire map[session.Platform]func(session.View), m *metrics, reclaim <-chan time.Time) (server, error) {
	if cfg.Discord.APIBase != "" {
		if err := discord.SetAPIBase(cfg.Discord.APIBase); err != nil {
			return nil, err
		}
	}
	bot, err := discord.New(svc, discord.Config{
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
	in := cfg.Discord.Interactions
	if in.PublicKey != "" {
		key, _ := hex.DecodeString(in.PublicKey) // validated
		e, err := bot.Endpoint(discord.EndpointConfig{PublicKey: ed25519.PublicKey(key), Reclaim: reclaim})
		if err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", in.Listen)
		if err != nil {
			return nil, fmt.Errorf("discord: interactions endpoint: %w", err)
		}
		log.Info("serving Discord interactions over HTTP", "addr", ln.Addr().String(), "path", in.Path, "guild", cfg.Discord.GuildID)
		return func(ctx context.Context) error { return e.Serve(ctx, ln, in.Path) }, nil
	}
	log.Info("serving Discord", "guild", cfg.Discord.GuildID)
	return bot.Run, nil
}
