package discord

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Slash command and option names.
const (
	cmdPlay    = "play"
	cmdMove    = "move"
	cmdResign  = "resign"
	cmdUndo    = "undo"
	cmdHint    = "hint"
	cmdStats   = "stats"
	cmdHistory = "history"
	cmdExport  = "export"
	cmdGames   = "games"
	cmdTop     = "top"
	cmdLang    = "lang"
	// cmdChatLang is the command grammar's own name, as the others are.
	cmdChatLang = "chatlang"
	cmdHelp     = "help"
	// cmdWeb answers with the user's link to the web board of their game.
	cmdWeb = "web"

	optLevel    = "level"
	optGame     = "game"
	optOpponent = "opponent"
	optSide     = "side"
	optCell     = "cell"
	optLanguage = "language"
)

// text returns catalog message k with its Chinese localizations
// (Discord has separate locales for simplified and traditional Chinese;
// both get the catalog's Chinese).
func text(k render.Key, args ...any) (string, map[discordgo.Locale]string) {
	zh := render.T(render.Chinese, k, args...)
	return render.T(render.English, k, args...), map[discordgo.Locale]string{discordgo.ChineseCN: zh, discordgo.ChineseTW: zh}
}

// choice returns a choice whose value is a word of the command grammar,
// named in both languages by name.
func choice(value string, name func(render.Lang) string) *discordgo.ApplicationCommandOptionChoice {
	zh := name(render.Chinese)
	return &discordgo.ApplicationCommandOptionChoice{
		Name: name(render.English), NameLocalizations: map[discordgo.Locale]string{discordgo.ChineseCN: zh, discordgo.ChineseTW: zh}, Value: value,
	}
}

// option returns an optional option of type t described by message k.
func option(t discordgo.ApplicationCommandOptionType, name string, k render.Key, choices ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	en, zh := text(k)
	return &discordgo.ApplicationCommandOption{Type: t, Name: name, Description: en, DescriptionLocalizations: zh, Choices: choices}
}

// simple returns a command without options described by message k.
func simple(name string, k render.Key) *discordgo.ApplicationCommand {
	en, zh := text(k)
	return &discordgo.ApplicationCommand{Name: name, Description: en, DescriptionLocalizations: &zh}
}

// Commands returns the slash commands the bot registers, with English
// descriptions and their Chinese localizations, all from the catalog.
func Commands() []*discordgo.ApplicationCommand {
	str := discordgo.ApplicationCommandOptionString
	var levels, games []*discordgo.ApplicationCommandOptionChoice
	for _, lv := range engine.AllLevels {
		levels = append(levels, choice(lv.String(), func(l render.Lang) string { return render.LevelName(l, lv) }))
	}
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		games = append(games, choice(name, func(l render.Lang) string { return render.GameName(l, r) }))
	}
	msg := func(k render.Key) func(render.Lang) string {
		return func(l render.Lang) string { return render.T(l, k) }
	}
	play := simple(cmdPlay, render.MsgSlashPlay)
	play.Options = []*discordgo.ApplicationCommandOption{
		option(str, optLevel, render.MsgOptionLevel, levels...),
		option(str, optGame, render.MsgOptionGame, games...),
		option(discordgo.ApplicationCommandOptionUser, optOpponent, render.MsgOptionOpponent),
		option(str, optSide, render.MsgOptionSide,
			choice("first", msg(render.MsgSideFirst)), choice("second", msg(render.MsgSideSecond)), choice("random", msg(render.MsgSideRandom))),
	}
	move := simple(cmdMove, render.MsgSlashMove)
	move.Options = []*discordgo.ApplicationCommandOption{option(str, optCell, render.MsgOptionCell)}
	move.Options[0].Required, move.Options[0].MaxLength = true, 4
	lang := simple(cmdLang, render.MsgSlashLang)
	// Each language is named in itself.
	self := func(l render.Lang) func(render.Lang) string {
		return func(render.Lang) string { return render.LangName(l) }
	}
	lang.Options = []*discordgo.ApplicationCommandOption{
		option(str, optLanguage, render.MsgOptionLanguage, choice("en", self(render.English)), choice("zh", self(render.Chinese))),
	}
	lang.Options[0].Required = true
	// Shown to the members who may change the channel's settings; the
	// bot checks the permissions again, as a server may show it to more.
	chatLang := simple(cmdChatLang, render.MsgSlashChatLang)
	perms := int64(discordgo.PermissionManageChannels)
	chatLang.DefaultMemberPermissions = &perms
	chatLang.Options = []*discordgo.ApplicationCommandOption{
		option(str, optLanguage, render.MsgOptionLanguage,
			choice("en", self(render.English)), choice("zh", self(render.Chinese)), choice("auto", msg(render.MsgOptionAuto))),
	}
	chatLang.Options[0].Required = true
	return []*discordgo.ApplicationCommand{
		play, move,
		simple(cmdResign, render.MsgMenuResign),
		simple(cmdUndo, render.MsgMenuUndo),
		simple(cmdHint, render.MsgMenuHint),
		simple(cmdGames, render.MsgMenuGames),
		simple(cmdStats, render.MsgMenuStats),
		simple(cmdHistory, render.MsgMenuHistory),
		simple(cmdExport, render.MsgMenuExport),
		simple(cmdTop, render.MsgMenuTop),
		lang,
		chatLang,
		simple(cmdHelp, render.MsgMenuHelp),
	}
}

// WebCommand returns /web, registered when the web board is on: it
// answers the user alone with their link to the web board of their game.
func WebCommand() *discordgo.ApplicationCommand { return simple(cmdWeb, render.MsgSlashWeb) }

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
	case cmdLang, cmdChatLang:
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
// names: their username as the handle, and as the name their server
// nickname, else global name, else username, from the interaction's
// resolved data. A user missing from it has just the id.
func resolvedUser(data discordgo.ApplicationCommandInteractionData, id string) member {
	m := member{User: session.User{ID: id}}
	if data.Resolved == nil {
		return m
	}
	if u := data.Resolved.Users[id]; u != nil {
		m.Bot = u.Bot
		m.Handle = u.Username
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
