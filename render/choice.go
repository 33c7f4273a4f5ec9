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

// ChoiceKeyboard returns the answers to the question of which game (the
// list of /games): a button per game, one to a row, that shows the game
// (Show) once it did what then returns for it, if anything: an action
// such as a Resign of the game, which the button carries. A nil then only
// shows.
func ChoiceKeyboard(games []session.View, l Lang, then func(session.View) Action) Keyboard {
	var kb Keyboard
	for _, v := range games {
		a := Action{Kind: Show, Game: v.ID()}
		if then != nil {
			t := then(v)
			a.MoveNo, a.Cell, a.Then = t.MoveNo, t.Cell, t.Kind
		}
		kb.Rows = append(kb.Rows, []Button{{Label: Title(v, l), Action: a}})
	}
	return kb
}
