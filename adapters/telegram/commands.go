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
		{Command: "accept", Description: "Accept the newest challenge"},
		{Command: "decline", Description: "Decline a challenge to you"},
		{Command: "cancel", Description: "Withdraw your challenge"},
		{Command: "rematch", Description: "Play your last game again, colours swapped"},
		{Command: "resign", Description: "Give up your game"},
		{Command: "stats", Description: "Your wins, losses and draws"},
		{Command: "top", Description: "The best players"},
		{Command: "lang", Description: "Language: /lang en or /lang zh"},
		{Command: "help", Description: "How to play"},
	},
	render.Chinese: {
		{Command: "play", Description: "开始一局：/play hard gomoku"},
		{Command: "start", Description: "从菜单选择棋盘和难度"},
		{Command: "duel", Description: "在本群向他人挑战"},
		{Command: "accept", Description: "接受最新的挑战"},
		{Command: "decline", Description: "拒绝给你的挑战"},
		{Command: "cancel", Description: "撤回你的挑战"},
		{Command: "rematch", Description: "交换先后手再来一局"},
		{Command: "resign", Description: "认输"},
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
