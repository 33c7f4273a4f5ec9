package render

// The messages that say which words of /play (and /duel) cannot go
// together. The words are the user's, as typed.
const (
	// MsgPlayTwice refuses a word (%q) given twice.
	MsgPlayTwice Key = "play_twice"
	// MsgPlayTwoLevels, MsgPlayTwoBoards, MsgPlayTwoSides and MsgPlayTwoK
	// refuse two words (%s, %s) of one kind: levels, boards, who moves
	// first, how many in a row win.
	MsgPlayTwoLevels Key = "play_two_levels"
	MsgPlayTwoBoards Key = "play_two_boards"
	MsgPlayTwoSides  Key = "play_two_sides"
	MsgPlayTwoK      Key = "play_two_k"
	// MsgRenjuExact refuses renju and exact (%s, %s) together.
	MsgRenjuExact Key = "renju_exact"
	// MsgRenjuFive refuses renju with a board or a kN (%s) whose K is not
	// five.
	MsgRenjuFive Key = "renju_five"
)

// The messages of /games and of the questions of which game a command or
// a typed cell is for, whose answers do it in the game chosen.
const (
	// MsgGamesTitle heads the list of /games, a button per game.
	MsgGamesTitle Key = "games_title"
	// MsgMenuGames describes /games in the platforms' command menus.
	MsgMenuGames Key = "menu_games"
	// MsgHelpGames is /games' line of /help.
	MsgHelpGames Key = "help_games"
	// MsgWhichResign, MsgWhichUndo and MsgWhichHint ask which game a
	// /resign, /undo or /hint is for; MsgWhichMove which game a typed
	// cell (%q) is for.
	MsgWhichResign Key = "which_resign"
	MsgWhichUndo   Key = "which_undo"
	MsgWhichHint   Key = "which_hint"
	MsgWhichMove   Key = "which_move"
)

// The other messages of names and results.
const (
	// MsgAsReserved refuses a name (%q) of the terminal's /as that is the
	// AI's.
	MsgAsReserved Key = "as_reserved"
	// MsgWinsOverline is the status line of a renju game White won with
	// an overline: the winner, and how many in a row (%s, a word).
	MsgWinsOverline Key = "wins_overline"
)

// commandsCatalog holds the messages of the blocks above.
var commandsCatalog = map[Key]map[Lang]string{
	MsgPlayTwice:     {English: "%q is given twice.", Chinese: "%q 重复了。"},
	MsgPlayTwoLevels: {English: "%s and %s are both levels: pick one.", Chinese: "%s 和 %s 都是难度：请只选一个。"},
	MsgPlayTwoBoards: {English: "%s and %s are both boards: pick one.", Chinese: "%s 和 %s 都是棋盘：请只选一个。"},
	MsgPlayTwoSides:  {English: "%s and %s both say who moves first: pick one.", Chinese: "%s 和 %s 都是先后手：请只选一个。"},
	MsgPlayTwoK:      {English: "%s and %s both say how many in a row win: pick one.", Chinese: "%s 和 %s 都是连成几子获胜：请只选一个。"},
	MsgRenjuExact:    {English: "%s and %s are different rules: pick one.", Chinese: "%s 和 %s 是不同的规则：请只选一个。"},
	MsgRenjuFive:     {English: "renju is five in a row, so it does not go with %s.", Chinese: "连珠是五子连珠，不能与 %s 同用。"},

	MsgGamesTitle:  {English: "Your running games here; tap one to show it:", Chinese: "你在这里进行中的对局；点一局即可显示："},
	MsgMenuGames:   {English: "Your running games here, to show one again", Chinese: "你在这里进行中的对局，可重新显示"},
	MsgHelpGames:   {English: "/games — your running games here, a button each to show its board again", Chinese: "/games — 你在这里进行中的对局，每局一个按钮，可重新显示棋盘"},
	MsgWhichResign: {English: "Which game do you resign?", Chinese: "你要认输哪一局？"},
	MsgWhichUndo:   {English: "Which game do you take a move back in?", Chinese: "你要在哪一局悔棋？"},
	MsgWhichHint:   {English: "Which game do you want a hint in?", Chinese: "你要在哪一局使用提示？"},
	MsgWhichMove:   {English: "Which game is %q for?", Chinese: "%q 下在哪一局？"},

	MsgAsReserved: {English: "%q is the AI's name: pick another, like /as bob.", Chinese: "%q 是 AI 的名字：请换一个，如 /as bob。"},
	MsgWinsOverline: {
		English: "Winner: %s, with an overline: %s in a row, which wins for White in renju.",
		Chinese: "获胜：%s，长连（连成%s子）：连珠规则中白棋长连也获胜。",
	},
}
