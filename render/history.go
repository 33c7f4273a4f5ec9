package render

import (
	"fmt"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// The messages of /history and of the replay and export buttons.
const (
	// MsgHistoryTitle heads the list of /history.
	MsgHistoryTitle Key = "history_title"
	// MsgHistoryEmpty answers /history before any finished game.
	MsgHistoryEmpty Key = "history_empty"
	// MsgHistoryLine is one game of /history: its number, the opponent,
	// the board, the result, the number of moves and the date.
	MsgHistoryLine Key = "history_line"
	// The results of a game for the player who asks.
	MsgHistoryWon     Key = "history_won"
	MsgHistoryLost    Key = "history_lost"
	MsgHistoryDrawn   Key = "history_drawn"
	MsgHistoryAborted Key = "history_aborted"
	MsgHistoryNoScore Key = "history_noscore"
	// MsgReplayButton and MsgExportButton label the buttons that send a
	// finished game's replay and record; %s is its number in /history,
	// or empty under its board.
	MsgReplayButton Key = "replay_button"
	MsgExportButton Key = "export_button"
	// MsgNoReplay refuses a replay of a game without moves.
	MsgNoReplay Key = "no_replay"
	// MsgHelpHistory is the line of /help on /history and /export.
	MsgHelpHistory Key = "help_history"
	// MsgMenuHistory and MsgMenuExport describe the commands in the
	// platforms' command menus (at most 100 characters).
	MsgMenuHistory Key = "menu_history"
	MsgMenuExport  Key = "menu_export"
	// MsgChartButton labels the button under a chart that sends the
	// tapper's own chart.
	MsgChartButton Key = "chart_button"
)

var historyCatalog = map[Key]map[Lang]string{
	MsgHistoryTitle:   {English: "Your last finished games:", Chinese: "你最近结束的对局："},
	MsgHistoryEmpty:   {English: "You have no finished game here yet.", Chinese: "你在这里还没有结束的对局。"},
	MsgHistoryLine:    {English: "%d. vs %s · %s · %s · moves: %d · %s", Chinese: "%d. 对 %s · %s · %s · %d 手 · %s"},
	MsgHistoryWon:     {English: "won", Chinese: "胜"},
	MsgHistoryLost:    {English: "lost", Chinese: "负"},
	MsgHistoryDrawn:   {English: "draw", Chinese: "和"},
	MsgHistoryAborted: {English: "aborted", Chinese: "中止"},
	MsgHistoryNoScore: {English: "expired", Chinese: "超时"},
	MsgReplayButton:   {English: "▶️%s", Chinese: "▶️%s"},
	MsgExportButton:   {English: "📋%s", Chinese: "📋%s"},
	MsgNoReplay:       {English: "This game has no moves to replay.", Chinese: "这局没有可回放的棋步。"},
	MsgMenuHistory:    {English: "Your last ten finished games, to replay", Chinese: "你最近十局已结束的对局，可回放"},
	MsgMenuExport:     {English: "The moves of your last finished game, to paste elsewhere", Chinese: "你上一局的棋谱，可粘贴到别处"},
	MsgChartButton:    {English: "📈 My chart", Chinese: "📈 我的图表"},
	MsgHelpHistory: {
		English: "/history — your last ten finished games, ▶️ replays one as an animation, 📋 (or /export) gives its moves to paste elsewhere",
		Chinese: "/history — 你最近十局已结束的对局，▶️ 以动画回放，📋（或 /export）给出可粘贴到别处的棋谱",
	},
}

// HistoryResult returns how game v ended for the player userID, in
// language l.
func HistoryResult(v session.View, userID string, l Lang) string {
	side := v.SideOf(userID)
	switch {
	case v.Status() == session.Aborted:
		return T(l, MsgHistoryAborted)
	case v.Status() == session.Drawn:
		return T(l, MsgHistoryDrawn)
	case v.Winner() == engine.Empty:
		return T(l, MsgHistoryNoScore)
	case v.Winner() == side:
		return T(l, MsgHistoryWon)
	}
	return T(l, MsgHistoryLost)
}

// History returns the text of /history for the player userID: a line per
// finished game of games (latest first), or MsgHistoryEmpty.
func History(games []session.View, userID string, l Lang) string {
	if len(games) == 0 {
		return T(l, MsgHistoryEmpty)
	}
	lines := []string{T(l, MsgHistoryTitle)}
	for i, v := range games {
		opp := engine.White
		if v.SideOf(userID) == engine.White {
			opp = engine.Black
		}
		lines = append(lines, T(l, MsgHistoryLine, i+1, SeatName(v.Seat(opp), l), GameName(l, v.Rules()),
			HistoryResult(v, userID, l), len(v.Moves()), v.Updated().UTC().Format("2006-01-02")))
	}
	return strings.Join(lines, "\n")
}

// HistoryKeyboard returns the buttons of /history: for each game, by its
// number in the list, ▶️ (ReplayGame) and 📋 (ExportGame), two games to a row.
func HistoryKeyboard(games []session.View, l Lang) Keyboard {
	var kb Keyboard
	var row []Button
	for i, v := range games {
		n := fmt.Sprint(" ", i+1)
		row = append(row,
			Button{Label: T(l, MsgReplayButton, n), Action: Action{Kind: ReplayGame, Game: v.ID()}},
			Button{Label: T(l, MsgExportButton, n), Action: Action{Kind: ExportGame, Game: v.ID()}})
		if len(row) == 4 || i == len(games)-1 {
			kb.Rows = append(kb.Rows, row)
			row = nil
		}
	}
	return kb
}

// ChartKeyboard returns the button under a chart: 📈, which sends the
// tapper's own chart.
func ChartKeyboard(l Lang) Keyboard {
	return Keyboard{Rows: [][]Button{{{Label: T(l, MsgChartButton), Action: Action{Kind: StatsChart}}}}}
}

// ChartBars returns the bars of the chart of s: the results against the
// AI per family and level, for those with games.
func ChartBars(s session.Stats) []ChartBar {
	var bars []ChartBar
	for _, f := range session.Families {
		for _, o := range session.Opponents {
			t := s.Result(f, o)
			if o == session.VsPeople || t.Games() == 0 {
				continue
			}
			bars = append(bars, ChartBar{Family: f, Level: o.Level(), Wins: t.Wins, Draws: t.Draws, Losses: t.Losses})
		}
	}
	return bars
}
