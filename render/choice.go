package render

import (
	"strings"

	"github.com/boardbot/boardbot/session"
)

// Title returns the one line that names a game in language l: who plays
// whom, as the first line of its message.
func Title(v session.View, l Lang) string {
	title, _, _ := strings.Cut(Text(v, l), "\n")
	return title
}

// ChoiceKeyboard returns the answers to MsgWhichGame: a button per game,
// one to a row, that shows the game (Show).
func ChoiceKeyboard(games []session.View, l Lang) Keyboard {
	var kb Keyboard
	for _, v := range games {
		kb.Rows = append(kb.Rows, []Button{{Label: Title(v, l), Action: Action{Kind: Show, Game: v.ID()}}})
	}
	return kb
}
