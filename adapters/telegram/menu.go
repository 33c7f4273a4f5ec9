package telegram

import (
	"context"
	"strings"
	"unicode"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
)

// The start menu's buttons carry callback data this package owns, told
// apart from the shared codec's by its prefix:
//
//	m                      the list of games
//	m:<game>               the levels of a game
//	m:<game>:<level>       start the game at the level
const menuPrefix = "m"

// menuGame is a game the start menu offers: a /play preset name.
type menuGame struct {
	preset string
}

// label returns the name of the game in language l (render.GameName).
func (g menuGame) label(l render.Lang) string {
	r, _ := engine.Preset(g.preset)
	return render.GameName(l, r)
}

// menuGames are the games of the start menu, in order.
var menuGames = []menuGame{{"ttt"}, {"4x4"}, {"5x5"}, {"7x7"}, {"gomoku"}, {"gomoku19"}, {"renju"}}

// levelLabel returns the button label of an AI level: its name
// (render.LevelName), capitalised.
func levelLabel(l render.Lang, lv engine.Level) string {
	name := []rune(render.LevelName(l, lv))
	if len(name) == 0 {
		return ""
	}
	return string(unicode.ToUpper(name[0])) + string(name[1:])
}

// menuChoice is a decoded start-menu button.
type menuChoice struct {
	game  *menuGame // nil: the list of games
	level engine.Level
}

// parseMenu decodes start-menu callback data; ok is false for anything
// no menu button carries.
func parseMenu(data string) (c menuChoice, ok bool) {
	f := strings.Split(data, ":")
	if f[0] != menuPrefix || len(f) > 3 || len(data) > adapters.MaxCallbackLen {
		return c, false
	}
	if len(f) == 1 {
		return c, true
	}
	for i := range menuGames {
		if menuGames[i].preset == f[1] {
			c.game = &menuGames[i]
		}
	}
	if c.game == nil {
		return c, false
	}
	if len(f) == 3 {
		l, err := engine.ParseLevel(f[2])
		if err != nil || l.String() != f[2] {
			return c, false
		}
		c.level = l
	}
	return c, true
}

// gamesMenu returns the start menu's list of games, two to a row.
func gamesMenu(l render.Lang) *tgbotapi.InlineKeyboardMarkup {
	var rows [][]tgbotapi.InlineKeyboardButton
	for i, g := range menuGames {
		b := tgbotapi.NewInlineKeyboardButtonData(g.label(l), menuPrefix+":"+g.preset)
		if i%2 == 0 {
			rows = append(rows, []tgbotapi.InlineKeyboardButton{b})
		} else {
			rows[len(rows)-1] = append(rows[len(rows)-1], b)
		}
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// levelsMenu returns the start menu's levels of game g.
func levelsMenu(l render.Lang, g *menuGame) *tgbotapi.InlineKeyboardMarkup {
	var row []tgbotapi.InlineKeyboardButton
	for _, lv := range engine.AllLevels {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(levelLabel(l, lv), menuPrefix+":"+g.preset+":"+lv.String()))
	}
	back := []tgbotapi.InlineKeyboardButton{tgbotapi.NewInlineKeyboardButtonData(render.T(l, render.MsgBack), menuPrefix)}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{row, back}}
}

// onMenu handles a button of the start menu: it edits the menu in place,
// and a level button starts the game, whose board takes the menu's place
// (or comes below it when the board is a picture).
func (b *Bot) onMenu(ctx context.Context, f *front, q *tgbotapi.CallbackQuery, req adapters.Request) handling {
	c, ok := parseMenu(q.Data)
	if !ok || !hasButton(q.Message, q.Data) || c.game == nil || c.level == 0 {
		lang := b.disp.Lang(ctx, req)
		switch {
		case !ok || !hasButton(q.Message, q.Data):
			b.answerLogged(ctx, q.ID, render.T(lang, render.MsgBadCallback))
			return handling{}
		case c.game == nil:
			f.editMenu(ctx, render.T(lang, render.MsgPickGame), gamesMenu(lang))
		default:
			f.editMenu(ctx, render.T(lang, render.MsgPickLevel, c.game.label(lang)), levelsMenu(lang, c.game))
		}
		b.answerLogged(ctx, q.ID, "")
		return handling{front: f}
	}
	args := adapters.DefaultPlay()
	args.Level = c.level
	args.Rules, _ = engine.Preset(c.game.preset)
	return b.carry(ctx, f, b.disp.Play(ctx, req, args))
}

// editMenu edits the tapped menu message to show text and kb.
func (f *front) editMenu(ctx context.Context, text string, kb *tgbotapi.InlineKeyboardMarkup) {
	k := messageKey{chat: f.chat, id: f.tapped.MessageID}
	f.queue(k, editText(k, text, markup{kb: kb}))
}
