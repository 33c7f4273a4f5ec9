package telegram

import (
	"context"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
)

// menuCommands are the commands shown in Telegram's command menu, with
// their descriptions in the catalog. Every command text goes to the
// shared grammar, so a command listed here before the grammar knows it
// gets the grammar's "unknown command" reply.
var menuCommands = []struct {
	name string
	key  render.Key
}{
	{adapters.CmdPlay, render.MsgMenuPlay},
	{adapters.CmdStart, render.MsgMenuStart},
	{adapters.CmdDuel, render.MsgMenuDuel},
	{adapters.CmdAccept, render.MsgMenuAccept},
	{adapters.CmdDecline, render.MsgMenuDecline},
	{adapters.CmdCancel, render.MsgMenuCancel},
	{adapters.CmdRematch, render.MsgMenuRematch},
	{adapters.CmdResign, render.MsgMenuResign},
	{adapters.CmdUndo, render.MsgMenuUndo},
	{adapters.CmdHint, render.MsgMenuHint},
	{adapters.CmdGames, render.MsgMenuGames},
	{adapters.CmdStats, render.MsgMenuStats},
	{adapters.CmdHistory, render.MsgMenuHistory},
	{adapters.CmdExport, render.MsgMenuExport},
	{adapters.CmdTop, render.MsgMenuTop},
	{adapters.CmdLang, render.MsgMenuLang},
	{adapters.CmdChatLang, render.MsgMenuChatLang},
	{adapters.CmdHelp, render.MsgMenuHelp},
}

// botCommands returns the command menu in language l.
func botCommands(l render.Lang) []tgbotapi.BotCommand {
	cmds := make([]tgbotapi.BotCommand, len(menuCommands))
	for i, c := range menuCommands {
		cmds[i] = tgbotapi.BotCommand{Command: c.name, Description: render.T(l, c.key)}
	}
	return cmds
}

// registerCommands sets the command menu in every language, English also
// as the default for users of other languages.
func (b *Bot) registerCommands(ctx context.Context) error {
	for _, l := range render.Langs {
		cfg := tgbotapi.NewSetMyCommands(botCommands(l)...)
		if l != render.English {
			cfg.LanguageCode = string(l)
		}
		if err := b.request(ctx, "setMyCommands", cfg); err != nil {
			return fmt.Errorf("telegram: register commands (%s): %w", l, err)
		}
	}
	return nil
}
