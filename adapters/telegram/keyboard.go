package telegram

import (
	"strings"
	"unicode"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
)

// Telegram's limits on inline keyboards.
const (
	// MaxRowButtons is the most buttons Telegram shows in one row.
	MaxRowButtons = 8
	// MaxButtons is the most buttons of one inline keyboard.
	MaxButtons = 100
)

// inlineKeyboard maps a render keyboard onto an inline keyboard within
// Telegram's limits: a row wider than MaxRowButtons is left out whole (a
// board row must not wrap, or taps would land on the wrong cells), then
// rows are left out from the top until at most MaxButtons remain, so the
// control rows, which come last, stay. Cells left out are still reached
// by typed coordinates. It returns nil for a keyboard with no buttons.
func inlineKeyboard(kb render.Keyboard) *tgbotapi.InlineKeyboardMarkup {
	var rows [][]tgbotapi.InlineKeyboardButton
	total := 0
	for _, r := range kb.Rows {
		if len(r) == 0 || len(r) > MaxRowButtons {
			continue
		}
		row := make([]tgbotapi.InlineKeyboardButton, len(r))
		for i, b := range r {
			label := b.Label
			if strings.TrimSpace(label) == "" {
				label = "·"
			}
			row[i] = tgbotapi.NewInlineKeyboardButtonData(label, adapters.EncodeAction(b.Action))
		}
		rows = append(rows, row)
		total += len(row)
	}
	for total > MaxButtons {
		total -= len(rows[0])
		rows = rows[1:]
	}
	if len(rows) == 0 {
		return nil
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

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
	for _, lv := range engine.Levels {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(levelLabel(l, lv), menuPrefix+":"+g.preset+":"+lv.String()))
	}
	back := []tgbotapi.InlineKeyboardButton{tgbotapi.NewInlineKeyboardButtonData(render.T(l, render.MsgBack), menuPrefix)}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{row, back}}
}
