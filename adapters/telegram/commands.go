package telegram

import (
	"context"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/render"
)

// botCommands are the commands shown in Telegram's command menu, in
// English (the default) and Chinese. Every command text goes to the shared
// grammar, so a command listed here before the grammar knows it gets the
// grammar's "unknown command" reply.
var botCommands = map[render.Lang][]tgbotapi.BotCommand{
	render.English: {
		{Command: "play", Description: "Start a game: /play hard gomoku"},
		{Command: "start", Description: "Pick a game and level from a menu"},
		{Command: "duel", Description: "Challenge someone in this chat"},
		{Command: "resign", Description: "Give up your game"},
		{Command: "undo", Description: "Take back your last move"},
		{Command: "stats", Description: "Your wins, losses and draws"},
		{Command: "top", Description: "The best players"},
		{Command: "lang", Description: "Language: /lang en or /lang zh"},
		{Command: "help", Description: "How to play"},
	},
	render.Chinese: {
		{Command: "play", Description: "开始一局：/play hard gomoku"},
		{Command: "start", Description: "从菜单选择棋盘和难度"},
		{Command: "duel", Description: "在本群向他人挑战"},
		{Command: "resign", Description: "认输"},
		{Command: "undo", Description: "悔棋：撤回你的上一步"},
		{Command: "stats", Description: "你的胜负和平局"},
		{Command: "top", Description: "排行榜"},
		{Command: "lang", Description: "语言：/lang en 或 /lang zh"},
		{Command: "help", Description: "玩法说明"},
	},
}

// registerCommands sets the command menu in every language, English also
// as the default for users of other languages.
func (b *Bot) registerCommands(ctx context.Context) error {
	for _, l := range render.Langs {
		cfg := tgbotapi.NewSetMyCommands(botCommands[l]...)
		if l != render.English {
			cfg.LanguageCode = string(l)
		}
		if err := b.request(ctx, "setMyCommands", cfg); err != nil {
			return fmt.Errorf("telegram: register commands (%s): %w", l, err)
		}
	}
	return nil
}
