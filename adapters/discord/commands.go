package discord

import (
	"strings"

	"github.com/boardbot/boardbot/session"
	"github.com/bwmarrin/discordgo"
)

// Slash command and option names.
const (
	cmdPlay   = "play"
	cmdMove   = "move"
	cmdResign = "resign"
	cmdStats  = "stats"
	cmdTop    = "top"
	cmdLang   = "lang"
	cmdHelp   = "help"

	optLevel    = "level"
	optGame     = "game"
	optOpponent = "opponent"
	optSide     = "side"
	optCell     = "cell"
	optLanguage = "language"
)

// zh returns the Chinese localizations of a name or description (Discord
// has separate locales for simplified and traditional Chinese; both get
// the catalog's Chinese).
func zh(s string) map[discordgo.Locale]string {
	return map[discordgo.Locale]string{discordgo.ChineseCN: s, discordgo.ChineseTW: s}
}

// choice returns a choice whose value is a word of the command grammar.
func choice(value, en, zhName string) *discordgo.ApplicationCommandOptionChoice {
	return &discordgo.ApplicationCommandOptionChoice{Name: en, NameLocalizations: zh(zhName), Value: value}
}

// stringOption returns an optional string option with choices.
func stringOption(name, en, zhDesc string, choices ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: name,
		Description: en, DescriptionLocalizations: zh(zhDesc), Choices: choices,
	}
}

// simple returns a command without options.
func simple(name, en, zhDesc string) *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: name, Description: en, DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.ChineseCN: zhDesc, discordgo.ChineseTW: zhDesc}}
}

// Commands returns the slash commands the bot registers, with English
// descriptions and their Chinese localizations.
func Commands() []*discordgo.ApplicationCommand {
	play := simple(cmdPlay, "Start a game against the AI, or challenge a member", "开始与 AI 对局，或挑战一位成员")
	play.Options = []*discordgo.ApplicationCommandOption{
		stringOption(optLevel, "How strongly the AI plays (default medium)", "AI 的强度（默认 medium）",
			choice("easy", "easy", "简单"), choice("medium", "medium", "中等"), choice("hard", "hard", "困难")),
		stringOption(optGame, "Board and how many in a row win (default tic-tac-toe)", "棋盘与连成几子获胜（默认井字棋）",
			choice("ttt", "Tic-tac-toe 3×3", "井字棋 3×3"), choice("4x4", "4×4, four in a row", "4×4，四子连线"),
			choice("5x5", "5×5, four in a row", "5×5，四子连线"), choice("7x7", "7×7, five in a row", "7×7，五子连线"),
			choice("gomoku", "Gomoku 15×15", "五子棋 15×15"), choice("gomoku19", "Gomoku 19×19", "五子棋 19×19")),
		{
			Type: discordgo.ApplicationCommandOptionUser, Name: optOpponent,
			Description: "Challenge this member instead of the AI", DescriptionLocalizations: zh("挑战这位成员而不是 AI"),
		},
		stringOption(optSide, "Who moves first (default you)", "谁先走（默认你）",
			choice("first", "I move first", "我先走"), choice("second", "I move second", "我后走"), choice("random", "Random", "随机")),
	}
	move := simple(cmdMove, "Place a stone by naming its cell", "输入坐标落子")
	move.Options = []*discordgo.ApplicationCommandOption{{
		Type: discordgo.ApplicationCommandOptionString, Name: optCell, Required: true, MaxLength: 4,
		Description: "Column letter and row number, like h8", DescriptionLocalizations: zh("列字母加行号，如 h8"),
	}}
	lang := simple(cmdLang, "Choose the language the bot answers you in", "选择机器人回复你的语言")
	lang.Options = []*discordgo.ApplicationCommandOption{
		stringOption(optLanguage, "Language", "语言", choice("en", "English", "English"), choice("zh", "中文", "中文")),
	}
	lang.Options[0].Required = true
	return []*discordgo.ApplicationCommand{
		play, move,
		simple(cmdResign, "Give up your game", "认输"),
		simple(cmdStats, "Your results", "你的战绩"),
		simple(cmdTop, "The best players here", "本频道排行榜"),
		lang,
		simple(cmdHelp, "How to play", "玩法说明"),
	}
}

// commandText turns a slash command into the text of the shared command
// grammar, such as "/play hard gomoku second". A /play naming an opponent
// becomes "/duel …", a challenge, and opponent is that user's id: the
// challenge is addressed by id (Dispatcher.Duel), not by a typed name.
func commandText(data discordgo.ApplicationCommandInteractionData) (text, opponent string) {
	opts := make(map[string]*discordgo.ApplicationCommandInteractionDataOption)
	for _, o := range data.Options {
		opts[o.Name] = o
	}
	str := func(name string) string {
		if o, ok := opts[name]; ok && o.Type == discordgo.ApplicationCommandOptionString {
			if s, ok := o.Value.(string); ok {
				return strings.TrimSpace(s)
			}
		}
		return ""
	}
	words := []string{"/" + data.Name}
	switch data.Name {
	case cmdPlay:
		if o, ok := opts[optOpponent]; ok {
			if id, ok := o.Value.(string); ok && id != "" {
				opponent = id
				words = []string{"/duel"}
			}
		}
		for _, name := range []string{optLevel, optGame, optSide} {
			if s := str(name); s != "" {
				words = append(words, s)
			}
		}
	case cmdLang:
		if s := str(optLanguage); s != "" {
			words = append(words, s)
		}
	}
	return strings.Join(words, " "), opponent
}

// member is a user an option names, as the interaction resolved it.
type member struct {
	session.User
	Bot bool
}

// resolvedUser returns the user with the id that a command's user option
// names: their server nickname, else global name, else username, from the
// interaction's resolved data. A user missing from it has just the id.
func resolvedUser(data discordgo.ApplicationCommandInteractionData, id string) member {
	m := member{User: session.User{ID: id}}
	if data.Resolved == nil {
		return m
	}
	if u := data.Resolved.Users[id]; u != nil {
		m.Bot = u.Bot
		m.Name = u.GlobalName
		if m.Name == "" {
			m.Name = u.Username
		}
	}
	if mem := data.Resolved.Members[id]; mem != nil && mem.Nick != "" {
		m.Name = mem.Nick
	}
	return m
}
