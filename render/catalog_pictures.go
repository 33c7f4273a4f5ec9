package render

// picturesCatalog holds the messages sent with the replay (Replay), the
// chart (Chart) and the record of a game (Export).
var picturesCatalog = map[Key]map[Lang]string{
	MsgSentRecently: {
		English: "Just sent: ask again in a few seconds for another copy.",
		Chinese: "刚刚发过了：过几秒再点可以再发一份。",
	},
	MsgReplayMoves: {English: "Moves: %d.", Chinese: "共 %d 手。"},
	MsgChartRating: {
		English: "📈 Duel rating: %d now, %d at best. Rated duels: %d.",
		Chinese: "📈 对战积分：当前 %d，最高 %d。计分对战：%d 局。",
	},
	MsgChartNoRating: {
		English: "📈 No rated duel yet: the line starts with your first duel.",
		Chinese: "📈 还没有计分对战：第一局对战之后开始画线。",
	},
	MsgChartBars: {
		English: "Bars: your games against the AI by board and level; blue for won, red for lost, yellow for drawn.",
		Chinese: "条形：你与 AI 的对局，按棋盘和难度分；蓝色为胜，红色为负，黄色为平。",
	},
	MsgChartAxis: {English: "Duel rating", Chinese: "对战积分"},
	MsgChartEmpty: {
		English: "📈 Nothing to draw yet: play a game against the AI or a duel first.",
		Chinese: "📈 还没有可画的内容：先和 AI 下一局，或下一局对战。",
	},
	MsgExportGame:   {English: "Game: %s (%s)", Chinese: "棋类：%s（%s）"},
	MsgExportFirst:  {English: "First: %s", Chinese: "先手：%s"},
	MsgExportSecond: {English: "Second: %s", Chinese: "后手：%s"},
	MsgExportDate:   {English: "Date: %s", Chinese: "日期：%s"},
	MsgExportResult: {English: "Result: %s", Chinese: "结果：%s"},
	MsgExportMoves:  {English: "Moves (%d): %s", Chinese: "棋谱（%d 手）：%s"},
}
