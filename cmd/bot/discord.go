package main

import (
	"log/slog"

	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/session"
)

// discordServer returns the Discord bot of the configuration. A
// discord.api_base changes discordgo's process-global endpoints.
func discordServer(cfg Config, svc *session.Service, log *slog.Logger) (server, error) {
	if cfg.Discord.APIBase != "" {
		if err := discord.SetAPIBase(cfg.Discord.APIBase); err != nil {
			return nil, err
		}
	}
	bot, err := discord.New(svc, discord.Config{
		Token:   string(cfg.Discord.Token),
		AppID:   cfg.Discord.AppID,
		GuildID: cfg.Discord.GuildID,
		Log:     log.With("platform", "discord"),
	})
	if err != nil {
		return nil, err
	}
	log.Info("serving Discord", "guild", cfg.Discord.GuildID)
	return bot.Run, nil
}
