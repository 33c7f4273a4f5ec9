package main

import (
	"log/slog"

	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/session"
)

// discordServer returns the Discord bot of the configuration, and sets
// its entry of onExpire, so that games the sweeper ends show it on their
// messages, and counts its updates and API errors in m. A
// discord.api_base changes discordgo's process-global endpoints.
func discordServer(cfg Config, svc *session.Service, log *slog.Logger, onExpire map[session.Platform]func(session.View), m *metrics) (server, error) {
	if cfg.Discord.APIBase != "" {
		if err := discord.SetAPIBase(cfg.Discord.APIBase); err != nil {
			return nil, err
		}
	}
	bot, err := discord.New(svc, discord.Config{
		Token:      string(cfg.Discord.Token),
		AppID:      cfg.Discord.AppID,
		GuildID:    cfg.Discord.GuildID,
		Log:        log.With("platform", "discord"),
		OnUpdate:   m.onUpdate(discord.Platform),
		OnAPIError: m.onAPIError(discord.Platform),
	})
	if err != nil {
		return nil, err
	}
	onExpire[discord.Platform] = bot.Expired
	log.Info("serving Discord", "guild", cfg.Discord.GuildID)
	return bot.Run, nil
}
