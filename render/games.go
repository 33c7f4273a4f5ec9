package render

import (
	"strconv"
	"strings"

	"github.com/boardbot/boardbot/engine"
)

// The names of games, families and levels.
const (
	MsgGameTicTacToe Key = "game_ttt"
	// MsgGameGomoku names a gomoku preset by its size.
	MsgGameGomoku Key = "game_gomoku"
	// MsgGameInARow names any other board by its size and K, a word of
	// MsgNumbers.
	MsgGameInARow Key = "game_in_a_row"
	// MsgGameExactly is MsgGameInARow for exact-K rules.
	MsgGameExactly Key = "game_exactly"
	// MsgGameRenju names a renju game by its size.
	MsgGameRenju Key = "game_renju"
	// MsgNumbers are the words for the numbers from 0 up, space-separated.
	MsgNumbers      Key = "numbers"
	MsgFamilyNxN    Key = "family_nxn"
	MsgFamilyGomoku Key = "family_gomoku"
	MsgFamilyRenju  Key = "family_renju"
	MsgLevelEasy    Key = "level_easy"
	MsgLevelMedium  Key = "level_medium"
	MsgLevelHard    Key = "level_hard"
	// MsgHeaderGame is the first line of a board: who plays whom, and
	// the game.
	MsgHeaderGame Key = "header_game"
)

// Number returns n as a word in language l ("four", "四"), or in digits
// beyond the words the catalog has.
func Number(l Lang, n int) string {
	words := strings.Fields(T(l, MsgNumbers))
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// GameName returns the name of the game of rules r in language l, naming
// the board, K and the exact rule unless the preset's name says them:
// "Tic-tac-toe", "Gomoku 15×15", "4×4, four in a row", "6×4, three in a
// row", "9×9, exactly five in a row", "Renju 15×15".
func GameName(l Lang, r engine.Rules) string {
	name := r.String()
	switch {
	case r.Renju:
		return T(l, MsgGameRenju, r.Width, r.Height)
	case name == "ttt":
		return T(l, MsgGameTicTacToe)
	case name == "gomoku" || name == "gomoku19":
		return T(l, MsgGameGomoku, r.Width, r.Height)
	case r.Exact:
		return T(l, MsgGameExactly, r.Width, r.Height, Number(l, r.K))
	}
	return T(l, MsgGameInARow, r.Width, r.Height, Number(l, r.K))
}

// FamilyName returns the name of a family of games, as /stats lists
// them: "Tic-tac-toe", "Other boards", "Gomoku", "Renju".
func FamilyName(l Lang, f engine.Family) string {
	switch f {
	case engine.FamilyRenju:
		return T(l, MsgFamilyRenju)
	case engine.FamilyTicTacToe:
		return T(l, MsgGameTicTacToe)
	case engine.FamilyGomoku:
		return T(l, MsgFamilyGomoku)
	}
	return T(l, MsgFamilyNxN)
}

// LevelName returns the name of an AI level in language l: "easy",
// "medium", "hard"; "简单", "中等", "困难".
func LevelName(l Lang, lv engine.Level) string {
	switch lv {
	case engine.Easy:
		return T(l, MsgLevelEasy)
	case engine.Medium:
		return T(l, MsgLevelMedium)
	case engine.Hard:
		return T(l, MsgLevelHard)
	}
	return lv.String()
}
