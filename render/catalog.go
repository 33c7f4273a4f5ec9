package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// Lang is a language of the message catalog.
type Lang string

// The languages of the catalog.
const (
	English Lang = "en"
	Chinese Lang = "zh"
)

// Langs lists every language of the catalog.
var Langs = []Lang{English, Chinese}

// LangOf returns the catalog language for a locale code such as "en-US",
// "zh-CN" or "zh-hans"; anything unknown is English.
func LangOf(locale string) Lang {
	l := strings.ToLower(locale)
	if l == "zh" || strings.HasPrefix(l, "zh-") || strings.HasPrefix(l, "zh_") {
		return Chinese
	}
	return English
}

// Key names one message of the catalog.
type Key string

// The messages of the catalog.
const (
	MsgWelcome        Key = "welcome"
	MsgHelp           Key = "help"
	MsgUnknownCommand Key = "unknown_command"
	MsgBadArgument    Key = "bad_argument"
	MsgBadCoord       Key = "bad_coord"
	MsgNoGame         Key = "no_game"
	MsgNotFound       Key = "not_found"
	MsgGameOver       Key = "game_over"
	MsgNotAPlayer     Key = "not_a_player"
	MsgNotYourTurn    Key = "not_your_turn"
	MsgStale          Key = "stale"
	MsgOffBoard       Key = "off_board"
	MsgCellTaken      Key = "cell_taken"
	MsgAlreadyPlaying Key = "already_playing"
	MsgBadRules       Key = "bad_rules"
	MsgBadCallback    Key = "bad_callback"
	MsgInternal       Key = "internal"
	MsgTurn           Key = "turn"
	MsgWins           Key = "wins"
	MsgDraw           Key = "draw"
	MsgResigned       Key = "resigned"
	MsgExpired        Key = "expired"
	MsgAI             Key = "ai"
	MsgYou            Key = "you"
	MsgResignButton   Key = "resign_button"
	MsgVs             Key = "vs"
	MsgWinsLine       Key = "wins_line"
	MsgLastMove       Key = "last_move"
	MsgRematchButton  Key = "rematch_button"
	MsgAcceptButton   Key = "accept_button"
	MsgDeclineButton  Key = "decline_button"
)

// catalog holds every message in every language, joined from the
// per-topic tables; a test checks that each key has each language.
var catalog = joinCatalogs(baseCatalog, refusalCatalog, picturesCatalog, chatLangCatalog, historyCatalog, terminalCatalog, adaptiveCatalog, commandsCatalog)

// joinCatalogs returns one catalog of the messages of parts. A key
// defined in two parts is a programming error that would silently hide
// one text, so it panics (at package initialisation, which every test
// runs).
func joinCatalogs(parts ...map[Key]map[Lang]string) map[Key]map[Lang]string {
	all := make(map[Key]map[Lang]string)
	for _, p := range parts {
		for k, m := range p {
			if _, dup := all[k]; dup {
				panic("render: message " + string(k) + " defined twice")
			}
			all[k] = m
		}
	}
	return all
}

// baseCatalog holds the messages of the game, the commands and the
// platforms' menus.
var baseCatalog = map[Key]map[Lang]string{
	MsgWelcome: {
		English: "Welcome! Play tic-tac-toe or gomoku against me or a friend. Try /play hard, or /help.",
		Chinese: "欢迎！和我或朋友下井字棋或五子棋。试试 /play hard，或者 /help。",
	},
	MsgHelp: {
		English: "/play [easy|medium|hard|adaptive] [ttt|4x4|5x5|7x7|gomoku|gomoku19|renju|WxH kK] [first|second|random] [exact|renju] — start a game, words in any order (defaults: medium ttt first; adaptive, or adapt: the AI plays at your rating against it; exact: only exactly K in a row wins; renju, with five in a row: Black may not make a double three, a double four or an overline, ⛔ on the board)\n/resign — give up your game; /start — the welcome (on Telegram a menu of games)\nTap a cell to place a stone, or type its name, like b2.",
		Chinese: "/play [easy|medium|hard|adaptive] [ttt|4x4|5x5|7x7|gomoku|gomoku19|renju|WxH kK] [first|second|random] [exact|renju] — 开始一局，参数顺序不限（默认：medium ttt first；adaptive 或 adapt：AI 按你对它的积分调整强度；exact：恰好 K 子连成一线才算赢；renju：五子连珠，黑棋不得下三三、四四或长连，棋盘上标为 ⛔）\n/resign — 认输；/start — 欢迎语（Telegram 上是棋盘菜单）\n点击格子落子，或输入坐标，如 b2。",
	},
	MsgUnknownCommand: {
		English: "Unknown command %s. Try /play hard or /help.",
		Chinese: "未知命令 %s。试试 /play hard 或 /help。",
	},
	MsgBadArgument: {
		English: "I don't understand %q. Example: /play hard gomoku second",
		Chinese: "无法理解 %q。例如：/play hard gomoku second",
	},
	MsgBadCoord: {
		English: "%q is not a cell of this board. Example: b2",
		Chinese: "%q 不是棋盘上的格子。例如：b2",
	},
	MsgNoGame:         {English: "You have no game here. Start one with /play.", Chinese: "你在这里没有对局。用 /play 开始一局。"},
	MsgNotFound:       {English: "This game no longer exists.", Chinese: "这局棋已不存在。"},
	MsgGameOver:       {English: "This game is over.", Chinese: "这局棋已经结束。"},
	MsgNotAPlayer:     {English: "This is not your game.", Chinese: "这不是你的对局。"},
	MsgNotYourTurn:    {English: "It's not your turn.", Chinese: "还没轮到你。"},
	MsgStale:          {English: "That board was out of date; try again.", Chinese: "棋盘已更新，请重试。"},
	MsgOffBoard:       {English: "That cell is off the board.", Chinese: "该格子不在棋盘上。"},
	MsgCellTaken:      {English: "That cell is taken.", Chinese: "该格子已有棋子。"},
	MsgAlreadyPlaying: {English: "You already have a game here; finish it or /resign first.", Chinese: "你在这里已有对局；请先下完或 /resign。"},
	MsgBadRules: {
		English: "Boards go from 3x3 to 19x19, and K from 3 to the shorter side. Example: /play 9x9 k5",
		Chinese: "棋盘从 3x3 到 19x19，K 从 3 到较短的边长。例如：/play 9x9 k5",
	},
	MsgBadCallback: {English: "That button doesn't work any more.", Chinese: "这个按钮已失效。"},
	MsgInternal:    {English: "Something went wrong; please try again.", Chinese: "出错了，请重试。"},
	MsgTurn:        {English: "%s to move", Chinese: "轮到 %s"},
	MsgWins:        {English: "Winner: %s.", Chinese: "获胜：%s。"},
	MsgDraw:        {English: "Draw: the board is full.", Chinese: "平局：棋盘已满。"},
	MsgResigned:    {English: "%s resigned.", Chinese: "%s 认输了。"},
	MsgExpired:     {English: "The game expired.", Chinese: "对局已超时。"},
	MsgAI:          {English: "AI (%s)", Chinese: "AI（%s）"},
	MsgYou:         {English: "you", Chinese: "你"},
	MsgResignButton: {
		English: "🏳 Resign",
		Chinese: "🏳 认输",
	},
	MsgVs:            {English: "%s  vs  %s", Chinese: "%s  对  %s"},
	MsgWinsLine:      {English: "Winner: %s, with %s in a row.", Chinese: "获胜：%s，连成%s子。"},
	MsgLastMove:      {English: "Last move: %s %s", Chinese: "上一步：%s %s"},
	MsgRematchButton: {English: "🔁 Rematch", Chinese: "🔁 再来一局"},
	MsgAcceptButton:  {English: "✅ Accept", Chinese: "✅ 接受"},
	MsgDeclineButton: {English: "🚫 Decline", Chinese: "🚫 拒绝"},
	MsgHelpMore: {
		English: "/duel [@user] [game] [first|second|random] — challenge someone here (or anyone)\n/accept, /decline, /cancel — answer or withdraw a challenge\n/rematch — play your last game again, colours swapped\n/stats — your results; /top [hard] — this chat's best\n/lang en|zh — your language",
		Chinese: "/duel [@用户] [棋类] [first|second|random] — 向某人（或任何人）发起对战\n/accept、/decline、/cancel — 接受、拒绝或撤回挑战\n/rematch — 交换先后手再来一局\n/stats — 你的战绩；/top [hard] — 本群排行\n/lang en|zh — 设置语言",
	},
	MsgHelpTerminal: {
		English: "In the terminal: type a button's number, or a cell like h8; /keys — number the cells of big boards (or stop); /web — the board's link for a browser; /as NAME — type as another user (/as alone switches back); /quit — leave.",
		Chinese: "终端里：输入按钮的编号，或坐标如 h8；/keys — 给大棋盘的格子编号（或取消）；/web — 在浏览器中打开棋盘的链接；/as 名字 — 以另一个用户的身份输入（只输入 /as 切回）；/quit — 退出。",
	},
	MsgWebLink:        {English: "🌐 This board in a browser: %s", Chinese: "🌐 在浏览器中打开这个棋盘：%s"},
	MsgWebNoGame:      {English: "There is no board on screen. Start a game with /play, then type /web.", Chinese: "屏幕上没有棋盘。先用 /play 开始一局，再输入 /web。"},
	MsgWebOff:         {English: "The web board is off (web.listen is not set).", Chinese: "网页棋盘未开启（未设置 web.listen）。"},
	MsgSlashWeb:       {English: "Your link to this game on the web board", Chinese: "这局棋的网页棋盘链接（仅你可用）"},
	MsgBadLang:        {English: "Languages: /lang en or /lang zh.", Chinese: "可选语言：/lang en 或 /lang zh。"},
	MsgLangSet:        {English: "I'll answer you in English.", Chinese: "之后我会用中文回复你。"},
	MsgNoChallenge:    {English: "There is no challenge here for you. Start one with /duel.", Chinese: "这里没有给你的挑战。用 /duel 发起一个。"},
	MsgNoFinishedGame: {English: "You have no finished game here to replay.", Chinese: "你在这里没有可以再来一局的已结束对局。"},
	MsgDuelSelf:       {English: "You can't challenge yourself. Example: /duel @friend", Chinese: "不能挑战自己。例如：/duel @friend"},
	MsgDuelByName:     {English: "A name could be anyone's: challenge someone by their @username, or reply to one of their messages with /duel. Example: /duel @friend 7x7", Chinese: "名字谁都可以用：请用 @用户名 挑战对方，或回复对方的一条消息发送 /duel。例如：/duel @friend 7x7"},
	MsgNotForYou:      {English: "This challenge is not for you.", Chinese: "这个挑战不是给你的。"},
	MsgNotOpen:        {English: "This challenge was already answered.", Chinese: "这个挑战已被回应。"},
	MsgNotStarted:     {English: "This game hasn't started: the challenge wasn't accepted.", Chinese: "对局尚未开始：挑战还没被接受。"},
	MsgNotOver:        {English: "This game is still going on.", Chinese: "这局棋还在进行中。"},
	MsgChallengeOpen: {
		English: "Open challenge from %s: %s. %s",
		Chinese: "%s 向所有人发起对战：%s。%s",
	},
	MsgChallengeTo: {
		English: "Challenge from %s to %s: %s. %s",
		Chinese: "%s 向 %s 发起对战：%s。%s",
	},
	MsgChallengeDeclined: {English: "%s declined the challenge.", Chinese: "%s 拒绝了挑战。"},
	MsgChallengeCanceled: {English: "%s withdrew the challenge.", Chinese: "%s 撤回了挑战。"},
	MsgChallengeLapsed:   {English: "The challenge from %s lapsed: nobody accepted it in time.", Chinese: "%s 的挑战已过期：无人及时接受。"},
	MsgChallengerPlays:   {English: "%s will play %s.", Chinese: "%s 执 %s。"},
	MsgOutOfTime:         {English: "%s ran out of time.", Chinese: "%s 超时。"},
	MsgCancelButton:      {English: "✖️ Cancel", Chinese: "✖️ 撤回"},
	MsgStatsHeader:       {English: "%s — duel rating %d, duels played: %d", Chinese: "%s — 对战积分 %d，已下对战：%d"},
	MsgStatsLine:         {English: "%s vs %s: %d won, %d lost, %d drawn", Chinese: "%s 对 %s：胜 %d，负 %d，平 %d"},
	MsgStatsNone:         {English: "No finished games yet.", Chinese: "还没有下完的对局。"},
	MsgVsPeople:          {English: "people", Chinese: "玩家"},
	MsgTopRating:         {English: "Best duel ratings here:", Chinese: "本群对战积分排行："},
	MsgTopHard:           {English: "Most wins against hard here:", Chinese: "本群战胜 hard 次数排行："},
	MsgTopLine:           {English: "%d. %s — %d", Chinese: "%d. %s — %d"},
	MsgTopEmpty:          {English: "Nobody is on this board yet.", Chinese: "排行榜上还没有人。"},
	MsgYourRank:          {English: "Your rank: %d.", Chinese: "你的排名：%d。"},
	MsgNowPlaying:        {English: "You are now %s.", Chinese: "你现在是 %s。"},
	MsgBusy:              {English: "I'm busy thinking about other games; try again in a moment.", Chinese: "我正在为其他对局思考，请稍后再试。"},
	MsgUserGames:         {English: "You have too many games going already; finish or resign one first.", Chinese: "你进行中的对局太多了，请先下完或认输一局。"},
	MsgChatGames:         {English: "This chat has too many games going; finish some first.", Chinese: "本群进行中的对局太多了，请先结束一些。"},
	MsgCooldown:          {English: "You just made a challenge; wait a few seconds before the next.", Chinese: "你刚发起过挑战，请稍等几秒再发起。"},
	MsgPlayer:            {English: "Player %s", Chinese: "玩家 %s"},
	MsgTooLong:           {English: "That message is too long (character limit for a command: %s).", Chinese: "消息太长：命令最多 %s 个字符。"},
	MsgPickGame:          {English: "Pick a game:", Chinese: "选择棋盘："},
	MsgPickLevel:         {English: "%s — pick a level:", Chinese: "%s — 选择难度："},
	MsgBack:              {English: "« Back", Chinese: "« 返回"},
	MsgBotOpponent: {
		English: "Bots can't be challenged; pick a member, or play the AI without an opponent.",
		Chinese: "不能挑战机器人；请选择一位成员，或不选对手与 AI 对局。",
	},
	MsgTypeMoves: {
		English: "The buttons show part of the board: the arrows move it, or type /move with a cell, like h8.",
		Chinese: "按钮只显示棋盘的一部分：用箭头移动，或用 /move 输入坐标，如 h8。",
	},
	MsgMenuPlay:       {English: "Start a game: /play hard gomoku", Chinese: "开始一局：/play hard gomoku"},
	MsgMenuStart:      {English: "Pick a game and level from a menu", Chinese: "从菜单选择棋盘和难度"},
	MsgMenuDuel:       {English: "Challenge someone in this chat", Chinese: "在本群向他人挑战"},
	MsgMenuAccept:     {English: "Accept the newest challenge", Chinese: "接受最新的挑战"},
	MsgMenuDecline:    {English: "Decline a challenge to you", Chinese: "拒绝给你的挑战"},
	MsgMenuCancel:     {English: "Withdraw your challenge", Chinese: "撤回你的挑战"},
	MsgMenuRematch:    {English: "Play your last game again, colours swapped", Chinese: "交换先后手再来一局"},
	MsgMenuResign:     {English: "Give up your game", Chinese: "认输"},
	MsgMenuUndo:       {English: "Take back your last move", Chinese: "悔棋：撤回你的上一步"},
	MsgMenuHint:       {English: "Show the move the AI would play for you", Chinese: "提示：标出 AI 会替你下的一步"},
	MsgMenuStats:      {English: "Your wins, losses and draws", Chinese: "你的胜负和平局"},
	MsgMenuTop:        {English: "The best players", Chinese: "排行榜"},
	MsgMenuLang:       {English: "Language: /lang en or /lang zh", Chinese: "语言：/lang en 或 /lang zh"},
	MsgMenuHelp:       {English: "How to play", Chinese: "玩法说明"},
	MsgUnsupported:    {English: "I can't do that here. Try /help.", Chinese: "这里做不到。试试 /help。"},
	MsgSlashPlay:      {English: "Start a game against the AI, or challenge a member", Chinese: "开始与 AI 对局，或挑战一位成员"},
	MsgSlashMove:      {English: "Place a stone by naming its cell", Chinese: "输入坐标落子"},
	MsgSlashLang:      {English: "Choose the language the bot answers you in", Chinese: "选择机器人回复你的语言"},
	MsgOptionLevel:    {English: "How strongly the AI plays (default medium)", Chinese: "AI 的强度（默认中等）"},
	MsgOptionGame:     {English: "Board and how many in a row win (default tic-tac-toe)", Chinese: "棋盘与连成几子获胜（默认井字棋）"},
	MsgOptionOpponent: {English: "Challenge this member instead of the AI", Chinese: "挑战这位成员而不是 AI"},
	MsgOptionSide:     {English: "Who moves first (default you)", Chinese: "谁先走（默认你）"},
	MsgOptionCell:     {English: "Column letter and row number, like h8", Chinese: "列字母加行号，如 h8"},
	MsgOptionLanguage: {English: "Language", Chinese: "语言"},
	MsgSideFirst:      {English: "I move first", Chinese: "我先走"},
	MsgSideSecond:     {English: "I move second", Chinese: "我后走"},
	MsgSideRandom:     {English: "Random", Chinese: "随机"},
	MsgGameTicTacToe:  {English: "Tic-tac-toe", Chinese: "井字棋"},
	MsgGameGomoku:     {English: "Gomoku %d×%d", Chinese: "五子棋 %d×%d"},
	MsgGameInARow:     {English: "%d×%d, %s in a row", Chinese: "%d×%d %s连"},
	MsgGameExactly:    {English: "%d×%d, exactly %s in a row", Chinese: "%d×%d 恰好%s连"},
	MsgGameRenju:      {English: "Renju %d×%d", Chinese: "连珠 %d×%d"},
	MsgNumbers: {
		English: "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen",
		Chinese: "零 一 二 三 四 五 六 七 八 九 十 十一 十二 十三 十四 十五 十六 十七 十八 十九",
	},
	MsgFamilyNxN:    {English: "Other boards", Chinese: "其他棋盘"},
	MsgFamilyGomoku: {English: "Gomoku", Chinese: "五子棋"},
	MsgFamilyRenju:  {English: "Renju", Chinese: "连珠"},
	MsgForbidden:    {English: "Forbidden for Black: %s.", Chinese: "黑棋禁手：%s。"},
	MsgDoubleThree:  {English: "double three", Chinese: "三三"},
	MsgDoubleFour:   {English: "double four", Chinese: "四四"},
	MsgOverline:     {English: "overline", Chinese: "长连"},
	MsgLevelEasy:    {English: "easy", Chinese: "简单"},
	MsgLevelMedium:  {English: "medium", Chinese: "中等"},
	MsgLevelHard:    {English: "hard", Chinese: "困难"},
	MsgHeaderGame:   {English: "%s · %s", Chinese: "%s · %s"},

	// The messages of the rules: aborted duels and takebacks.
	MsgAborted: {
		English: "Game aborted: it ended before both players moved. No winner, no rating change.",
		Chinese: "对局已中止：双方还没都落子就结束了。不计胜负，不影响积分。",
	},
	MsgUndoButton:        {English: "↩️ Undo", Chinese: "↩️ 悔棋"},
	MsgUndoAcceptButton:  {English: "✅ Allow takeback", Chinese: "✅ 同意悔棋"},
	MsgUndoDeclineButton: {English: "🚫 Refuse takeback", Chinese: "🚫 拒绝悔棋"},
	MsgUndoAsked: {
		English: "Takeback asked by %s. %s: accept or refuse (or type /undo to accept).",
		Chinese: "%s 请求悔棋。%s：请同意或拒绝（或输入 /undo 同意）。",
	},
	MsgTakebacks:     {English: "Takebacks: %d.", Chinese: "悔棋：%d 次。"},
	MsgNoUndo:        {English: "You have no move to take back.", Chinese: "你没有可以悔的棋。"},
	MsgUndoLimit:     {English: "No takebacks left in this game.", Chinese: "本局的悔棋次数已用完。"},
	MsgNoUndoRequest: {English: "There is no takeback request for you to answer.", Chinese: "没有需要你回应的悔棋请求。"},
	MsgStatsTakebacks: {
		English: "  (games with takebacks: %d, won: %d; those wins are not on /top hard)",
		Chinese: "  （有悔棋：%d 局，胜 %d；这些胜局不计入 /top hard）",
	},
	MsgHintButton: {English: "💡 Hint", Chinese: "💡 提示"},
	MsgHintShown:  {English: "Hint: %s %s (hints left: %d).", Chinese: "提示：%s %s（剩余提示：%d 次）。"},
	MsgHintsUsed:  {English: "Hints: %d.", Chinese: "提示：%d 次。"},
	MsgHintLimit:  {English: "No hints left in this game (%d used).", Chinese: "本局的提示次数已用完（已用 %d 次）。"},
	MsgHintsOff:   {English: "Hints are turned off on this bot.", Chinese: "本机器人没有开启提示。"},
	MsgHintDuel:   {English: "No hints in a duel: hints are only against the AI.", Chinese: "对战中不能使用提示：提示仅用于对 AI 的对局。"},
	MsgStatsHints: {
		English: "  (games with hints: %d; their wins are not on /top hard)",
		Chinese: "  （有提示：%d 局；其胜局不计入 /top hard）",
	},
	MsgHelpHint: {
		English: "/hint (or 💡) — against the AI, mark 🎯 the move the hard AI would play for you (a few per game; such games are not on /top hard)",
		Chinese: "/hint（或 💡）— 对 AI 时，用 🎯 标出困难级 AI 会替你下的一步（每局有限次；这样的对局不计入 /top hard）",
	},
	MsgInlineVsAI:        {English: "%s · against the AI (%s)", Chinese: "%s · 对战 AI（%s）"},
	MsgInlineVsMe:        {English: "%s · against me (🤝 anyone may join)", Chinese: "%s · 和我下（🤝 任何人都可加入）"},
	MsgInlineIntroAI:     {English: "%s: %s against the AI (%s). Tap ▶️ Start.", Chinese: "%s：%s，对战 AI（%s）。点 ▶️ 开始。"},
	MsgInlineIntroDuel:   {English: "Challenge from %s: %s, against anyone here. Tap 🤝 Join to play.", Chinese: "来自 %s 的挑战：%s，这里的任何人都可应战。点 🤝 加入即可对局。"},
	MsgInlineStartButton: {English: "▶️ Start", Chinese: "▶️ 开始"},
	MsgInlineJoinButton:  {English: "🤝 Join", Chinese: "🤝 加入"},
	MsgInlineNoMatch:     {English: "No game matches “%s”", Chinese: "没有与“%s”匹配的游戏"},
	MsgInlineOwnChallenge: {
		English: "This is your challenge: someone else joins it.",
		Chinese: "这是你发起的挑战：需要别人加入。",
	},
	MsgHelpUndo: {
		English: "/undo (or ↩️) — take back your last move: against the AI at once, with its reply; in a duel your opponent accepts or refuses",
		Chinese: "/undo（或 ↩️）— 悔棋：对 AI 立即撤回你的上一步和它的应手；对战中由对手同意或拒绝",
	},
}

// T returns message k in language l, formatted with args.
func T(l Lang, k Key, args ...any) string {
	m, ok := catalog[k][l]
	if !ok {
		m = catalog[k][English]
	}
	if len(args) == 0 {
		return m
	}
	return fmt.Sprintf(m, args...)
}

// Localized is an error that carries its own catalog message, such as a
// parse error of the command grammar.
type Localized interface {
	error
	Message() (Key, []any)
}

// refusals maps the errors of lower layers to their messages.
var refusals = []struct {
	err error
	key Key
}{
	{session.ErrNotFound, MsgNotFound},
	{session.ErrGameOver, MsgGameOver},
	{session.ErrNotAPlayer, MsgNotAPlayer},
	{session.ErrNotYourTurn, MsgNotYourTurn},
	{session.ErrStale, MsgStale},
	{session.ErrConflict, MsgStale},
	{session.ErrOffBoard, MsgOffBoard},
	{session.ErrCellTaken, MsgCellTaken},
	{session.ErrAlreadyPlaying, MsgAlreadyPlaying},
	{engine.ErrBadRules, MsgBadRules},
	{session.ErrBadRequest, MsgBadRules},
	{session.ErrExpired, MsgExpired},
	{session.ErrNotForYou, MsgNotForYou},
	{session.ErrNameOnly, MsgDuelByName},
	{session.ErrNotOpen, MsgNotOpen},
	{session.ErrNotStarted, MsgNotStarted},
	{session.ErrNotOver, MsgNotOver},
	{session.ErrBusy, MsgBusy},
	{session.ErrUserGames, MsgUserGames},
	{session.ErrChatGames, MsgChatGames},
	{session.ErrCooldown, MsgCooldown},
	{session.ErrNoUndo, MsgNoUndo},
	{session.ErrUndoLimit, MsgUndoLimit},
	{session.ErrNoUndoRequest, MsgNoUndoRequest},
	{session.ErrHintDuel, MsgHintDuel},
	{session.ErrHintLimit, MsgHintsOff},
	{session.ErrSentRecently, MsgSentRecently},
}

// ErrorText returns the short message for err in language l: its own
// message for a Localized error, the foul for a renju foul ("Forbidden for
// Black: double three."), the refusal's message for a session refusal,
// and a generic apology for anything else.
func ErrorText(l Lang, err error) string {
	var loc Localized
	if errors.As(err, &loc) {
		k, args := loc.Message()
		return T(l, k, args...)
	}
	var foul *engine.FoulError
	if errors.As(err, &foul) {
		return T(l, MsgForbidden, FoulName(l, foul.Foul))
	}
	for _, r := range refusals {
		if errors.Is(err, r.err) {
			return T(l, r.key)
		}
	}
	return T(l, MsgInternal)
}

// The messages of duels, rematches, stats, leaderboards and settings.
const (
	MsgHelpMore Key = "help_more"
	// MsgHelpTerminal is the part of /help only the terminal has.
	MsgHelpTerminal Key = "help_terminal"
	// MsgWebLink gives the link of the board on screen (%s) for a
	// browser; MsgWebNoGame says there is none; MsgWebOff that the web
	// board is not served.
	MsgWebLink   Key = "web_link"
	MsgWebNoGame Key = "web_no_game"
	MsgWebOff    Key = "web_off"
	// MsgSlashWeb describes Discord's /web.
	MsgSlashWeb          Key = "slash_web"
	MsgBadLang           Key = "bad_lang"
	MsgLangSet           Key = "lang_set"
	MsgNoChallenge       Key = "no_challenge"
	MsgNoFinishedGame    Key = "no_finished_game"
	MsgDuelSelf          Key = "duel_self"
	MsgDuelByName        Key = "duel_by_name"
	MsgNotForYou         Key = "not_for_you"
	MsgNotOpen           Key = "not_open"
	MsgNotStarted        Key = "not_started"
	MsgNotOver           Key = "not_over"
	MsgChallengeOpen     Key = "challenge_open"
	MsgChallengeTo       Key = "challenge_to"
	MsgChallengeDeclined Key = "challenge_declined"
	MsgChallengeCanceled Key = "challenge_cancelled"
	MsgChallengeLapsed   Key = "challenge_lapsed"
	MsgChallengerPlays   Key = "challenger_plays"
	MsgOutOfTime         Key = "out_of_time"
	MsgCancelButton      Key = "cancel_button"
	MsgStatsHeader       Key = "stats_header"
	MsgStatsLine         Key = "stats_line"
	MsgStatsNone         Key = "stats_none"
	MsgVsPeople          Key = "vs_people"
	MsgTopRating         Key = "top_rating"
	MsgTopHard           Key = "top_hard"
	MsgTopLine           Key = "top_line"
	MsgTopEmpty          Key = "top_empty"
	MsgYourRank          Key = "your_rank"
	MsgNowPlaying        Key = "now_playing"
	// MsgPlayer names a person whose name shows nothing, by the end of
	// their id.
	MsgPlayer Key = "player"
)

// The messages of the limits that keep one user or chat from swamping the
// bot.
const (
	MsgBusy      Key = "busy"
	MsgUserGames Key = "user_games"
	MsgChatGames Key = "chat_games"
	MsgCooldown  Key = "cooldown"
	MsgTooLong   Key = "too_long"
)

// The messages of the rules: aborted duels and takebacks.
const (
	// MsgAborted is the status line of a duel that ended before both
	// players moved.
	MsgAborted           Key = "aborted"
	MsgUndoButton        Key = "undo_button"
	MsgUndoAcceptButton  Key = "undo_accept_button"
	MsgUndoDeclineButton Key = "undo_decline_button"
	// MsgUndoAsked says under a duel's board that one player asks the
	// other for a takeback.
	MsgUndoAsked Key = "undo_asked"
	// MsgTakebacks says under a board how many takebacks the game had.
	MsgTakebacks      Key = "takebacks"
	MsgNoUndo         Key = "no_undo"
	MsgUndoLimit      Key = "undo_limit"
	MsgNoUndoRequest  Key = "no_undo_request"
	MsgStatsTakebacks Key = "stats_takebacks"
	MsgHelpUndo       Key = "help_undo"
	// MsgHintButton is the 💡 button; MsgHintShown says under the board
	// where the hint is and how many are left, MsgHintsUsed how many the
	// game had. MsgHintLimit refuses a hint with the number used,
	// MsgHintsOff one in a game with none allowed, MsgHintDuel one in a
	// duel. MsgStatsHints marks the games with hints in /stats, and
	// MsgHelpHint is /hint's line of /help.
	MsgHintButton Key = "hint_button"
	MsgHintShown  Key = "hint_shown"
	MsgHintsUsed  Key = "hints_used"
	MsgHintLimit  Key = "hint_limit"
	MsgHintsOff   Key = "hints_off"
	MsgHintDuel   Key = "hint_duel"
	MsgStatsHints Key = "stats_hints"
	MsgHelpHint   Key = "help_hint"
	// MsgInlineVsAI and MsgInlineVsMe are the titles of inline results,
	// MsgInlineIntroAI and MsgInlineIntroDuel the messages they post,
	// with MsgInlineStartButton or MsgInlineJoinButton. MsgInlineNoMatch
	// answers a query no game matches; MsgInlineOwnChallenge refuses
	// Join to the challenger.
	MsgInlineVsAI         Key = "inline_vs_ai"
	MsgInlineVsMe         Key = "inline_vs_me"
	MsgInlineIntroAI      Key = "inline_intro_ai"
	MsgInlineIntroDuel    Key = "inline_intro_duel"
	MsgInlineStartButton  Key = "inline_start_button"
	MsgInlineJoinButton   Key = "inline_join_button"
	MsgInlineNoMatch      Key = "inline_no_match"
	MsgInlineOwnChallenge Key = "inline_own_challenge"
)

// The messages that say what is wrong with a refused command, button
// number or typed move, and the question of which game a typed move is
// for.
const (
	// MsgNoArguments refuses an argument (the first %q) of a command (the
	// second %s) that takes none.
	MsgNoArguments Key = "no_arguments"
	// MsgBadTopArgument refuses an argument of /top.
	MsgBadTopArgument Key = "bad_top_argument"
	// MsgBadDuelArgument refuses an argument of /duel.
	MsgBadDuelArgument Key = "bad_duel_argument"
	// MsgDuelLevel refuses an AI level given to /duel.
	MsgDuelLevel Key = "duel_level"
	// MsgBadDuelRules refuses the board of a /duel.
	MsgBadDuelRules Key = "bad_duel_rules"
	// MsgBadAs refuses the argument of the terminal's /as.
	MsgBadAs Key = "bad_as"
	// MsgNoButton refuses a typed button number (%s) that no button on
	// screen has; %d is the highest that does.
	MsgNoButton Key = "no_button"
	// MsgNoButtons refuses a typed button number when none is on screen.
	MsgNoButtons Key = "no_buttons"
	// MsgTypedGameOver refuses a typed move for a game that has ended.
	MsgTypedGameOver Key = "typed_game_over"
	// MsgWindow says which cells the buttons of a board window are: its
	// first and last columns, and its lowest and highest rows.
	MsgWindow Key = "window"
)

// refusalCatalog holds the messages of the block above.
var refusalCatalog = map[Key]map[Lang]string{
	MsgNoArguments: {
		English: "I don't understand %q: nothing goes after %s.",
		Chinese: "无法理解 %q：%s 后面不带参数。",
	},
	MsgBadTopArgument: {
		English: "I don't understand %q. Try /top, or /top hard for wins against hard.",
		Chinese: "无法理解 %q。试试 /top，或用 /top hard 看战胜 hard 的次数。",
	},
	MsgBadDuelArgument: {
		English: "I don't understand %q. Example: /duel @friend 7x7 first",
		Chinese: "无法理解 %q。例如：/duel @friend 7x7 first",
	},
	MsgDuelLevel: {
		English: "A duel is between people, so it takes no level like %q. Example: /duel @friend gomoku",
		Chinese: "对战是玩家之间的，不带 %q 这样的难度。例如：/duel @friend gomoku",
	},
	MsgBadDuelRules: {
		English: "Boards go from 3x3 to 19x19, and K from 3 to the shorter side. Example: /duel 9x9 k5",
		Chinese: "棋盘从 3x3 到 19x19，K 从 3 到较短的边长。例如：/duel 9x9 k5",
	},
	MsgBadAs: {
		English: "I don't understand %q. Example: /as bob to type as bob, /as alone to be yourself again.",
		Chinese: "无法理解 %q。例如：/as bob 以 bob 的身份输入，单独 /as 切回自己。",
	},
	MsgNoButton: {
		English: "No button %s — type one of 1–%d.",
		Chinese: "没有按钮 %s——请输入 1–%d 中的一个。",
	},
	MsgNoButtons: {
		English: "There are no buttons to type now. Start a game with /play.",
		Chinese: "现在没有可以输入的按钮。用 /play 开始一局。",
	},
	MsgTypedGameOver: {English: "That game is over; /rematch or /play.", Chinese: "那局棋已经结束；/rematch 或 /play。"},
	MsgWindow: {
		English: "The buttons are columns %s–%s, rows %s–%s.",
		Chinese: "按钮是第 %s–%s 列、第 %s–%s 行。",
	},
}

// The messages of one platform's own features: Telegram's start menu,
// Discord's notes.
const (
	MsgPickGame    Key = "pick_game"
	MsgPickLevel   Key = "pick_level"
	MsgBack        Key = "back"
	MsgBotOpponent Key = "bot_opponent"
	MsgTypeMoves   Key = "type_moves"
)

// The descriptions of the commands in a platform's command menu, and of
// Discord's slash commands and their options.
const (
	MsgSlashPlay      Key = "slash_play"
	MsgSlashMove      Key = "slash_move"
	MsgSlashLang      Key = "slash_lang"
	MsgOptionLevel    Key = "option_level"
	MsgOptionGame     Key = "option_game"
	MsgOptionOpponent Key = "option_opponent"
	MsgOptionSide     Key = "option_side"
	MsgOptionCell     Key = "option_cell"
	MsgOptionLanguage Key = "option_language"
	MsgSideFirst      Key = "side_first"
	MsgSideSecond     Key = "side_second"
	MsgSideRandom     Key = "side_random"
	MsgMenuPlay       Key = "menu_play"
	MsgMenuStart      Key = "menu_start"
	MsgMenuDuel       Key = "menu_duel"
	MsgMenuAccept     Key = "menu_accept"
	MsgMenuDecline    Key = "menu_decline"
	MsgMenuCancel     Key = "menu_cancel"
	MsgMenuRematch    Key = "menu_rematch"
	MsgMenuResign     Key = "menu_resign"
	MsgMenuUndo       Key = "menu_undo"
	MsgMenuHint       Key = "menu_hint"
	MsgMenuStats      Key = "menu_stats"
	MsgMenuTop        Key = "menu_top"
	MsgMenuLang       Key = "menu_lang"
	MsgMenuHelp       Key = "menu_help"
	MsgUnsupported    Key = "unsupported"
)
