package main

import (
	"context"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/session"
)

// TelegramConfig is the telegram section of the configuration.
type TelegramConfig struct {
	// Token is the bot token from @BotFather; with it set the bot serves
	// Telegram.
	Token Secret `yaml:"token"`
	// APIEndpoint is the Bot API URL with %s for the token and the
	// method; empty means the official one.
	APIEndpoint string `yaml:"api_endpoint"`
	// Mode is polling (default) or webhook.
	Mode string `yaml:"mode"`
	// Webhook configures webhook mode.
	Webhook struct {
		Listen string `yaml:"listen"`
		URL    string `yaml:"url"`
		Secret Secret `yaml:"secret"`
	} `yaml:"webhook"`
	// Workers is how many updates are handled at once; 0 means the
	// adapter's default.
	Workers int `yaml:"workers"`
	// MiniApp is the short name of the bot's Mini App (registered with
	// @BotFather, its URL the web board's public_url): boards in groups
	// link to it; empty leaves them without the 🌐 button.
	MiniApp string `yaml:"mini_app"`
	// PaceMargin is telegram.Pace.Margin: how much longer than Telegram's
	// windows a message counts in the flood-control budget replicas on
	// etcd share; 0 means the adapter's default.
	PaceMargin time.Duration `yaml:"pace_margin"`
}

// newTelegram connects to the Bot API (getMe, aborted when ctx ends) and
// returns the Telegram
// bot playing the games of svc, counting its updates and API errors in m.
// It sets the bot's entry of onExpire, so that games the sweeper ends show
// it on their board messages.
func newTelegram(ctx context.Context, svc *session.Service, cfg Config, log *slog.Logger, m *metrics, onExpire map[session.Platform]func(session.View), reclaim <-chan time.Time, webhook net.Listener, webBoard func(session.View) telegram.WebButton) (*telegram.Bot, error) {
	c := cfg.Telegram
	bot, err := telegram.New(ctx, svc, telegram.Config{
		Token:       string(c.Token),
		APIEndpoint: c.APIEndpoint,
		Mode:        c.Mode,
		Webhook: telegram.WebhookConfig{
			Listen:   c.Webhook.Listen,
			Listener: webhook,
			URL:      c.Webhook.URL,
			Secret:   string(c.Webhook.Secret),
		},
		Workers:         c.Workers,
		Pace:            telegram.Pace{Margin: c.PaceMargin},
		Reclaim:         reclaim,
		Log:             log,
		ShutdownTimeout: cfg.ShutdownTimeout,
		OnUpdate:        m.onUpdate(telegram.Platform),
		OnAPIError:      m.onAPIError(telegram.Platform),
		WebBoard:        webBoard,
	})
	if err != nil {
		return nil, err
	}
	onExpire[telegram.Platform] = bot.Expired
	mode := c.Mode
	if mode == "" {
		mode = telegram.ModePolling
	}
	log.Info("serving Telegram", "bot", bot.UserName(), "mode", mode)
	return bot, nil
}

// telegramWebButton returns the 🌐 button under a Telegram board of v,
// to the web board wb (nil, or one serving the terminal alone: no
// button). In a private chat it opens the
// board as a Mini App, which proves who opens it, when the web board is
// served over HTTPS (Telegram's condition), and a signed link for the
// chat's user otherwise. In a group, where Telegram takes no Mini App
// buttons, it links to the bot's Mini App (telegram.mini_app) at the
// game.
func telegramWebButton(cfg Config, botName string, v session.View, wb *webBoard) telegram.WebButton {
	if wb == nil || !cfg.Web.forChats() {
		return telegram.WebButton{}
	}
	chat, err := strconv.ParseInt(v.Chat(), 10, 64)
	switch {
	case err != nil:
		return telegram.WebButton{} // an inline message: no one chat to link for
	case chat > 0 && strings.HasPrefix(wb.public, "https://"):
		return telegram.WebButton{URL: wb.public + "/?game=" + url.QueryEscape(string(v.ID())), App: true}
	case chat > 0:
		return telegram.WebButton{URL: wb.link(telegram.Platform, v.ID(), v.Chat())}
	case cfg.Telegram.MiniApp != "" && botName != "":
		return telegram.WebButton{URL: "https://t.me/" + botName + "/" + cfg.Telegram.MiniApp + "?startapp=" + url.QueryEscape(string(v.ID()))}
	}
	return telegram.WebButton{}
}
