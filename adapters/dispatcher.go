package adapters

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Request says who acts, where, and in which language to answer.
type Request struct {
	Chat string
	User session.User
	// Locale is the user's language code as the platform reports it.
	Locale string
	// Message is the id of the message whose button was tapped; empty for
	// typed commands.
	Message string
}

// Reply is what the platform adapter shows after an action. Any of its
// parts may be empty; an empty Reply means there is nothing to show.
type Reply struct {
	// Lang is the language every text in the reply is in, and the one to
	// render the game in.
	Lang render.Lang
	// Text is a message for the chat, answering a typed command.
	Text string
	// Game is a game to show. When Edit is set, the message Edit names
	// shows it and is edited in place; otherwise the adapter sends a new
	// board message and records it with Dispatcher.Bind.
	Game *session.View
	Edit string
	// Window is the top-left cell of the board window to show on a board
	// larger than the keyboard (render.BoardKeyboard's window); nil shows
	// the window around the last move.
	Window *engine.Point
	// Notice is a short refusal for the acting user only (a toast or an
	// ephemeral reply); the chat sees nothing.
	Notice string
}

// Reasons of the refusals the dispatcher reports to the session's
// observer before any game is involved (session.Reason names the others).
const (
	ReasonBadCommand  = "bad_command"
	ReasonBadCallback = "bad_callback"
	ReasonBadCoord    = "bad_coord"
)

// Dispatcher turns commands, taps and typed moves into session calls and
// their results into Replies. It is safe for concurrent use.
type Dispatcher struct {
	svc      *session.Service
	platform session.Platform
	botName  string
	log      *slog.Logger
}

// NewDispatcher returns the dispatcher of one platform. botName is the
// bot's username, for commands addressed as /play@botName; log may be nil.
func NewDispatcher(svc *session.Service, platform session.Platform, botName string, log *slog.Logger) *Dispatcher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Dispatcher{svc: svc, platform: platform, botName: botName, log: log}
}

// actor returns the session actor of a request, with the user's name
// cleaned of what must never be shown (render.CleanName) before the
// session stores it.
func (d *Dispatcher) actor(req Request) session.Actor {
	u := req.User
	u.Name = render.CleanName(u.Name)
	return session.Actor{Platform: d.platform, Chat: req.Chat, User: u}
}

// lang returns the language to answer the request in: the user's
// override, else the chat's language, else the client's locale.
func (d *Dispatcher) lang(ctx context.Context, req Request) render.Lang {
	if l, err := d.svc.Lang(ctx, d.actor(req)); err == nil && l != "" {
		return render.LangOf(l)
	} else if err != nil {
		d.log.Warn("reading language settings", "platform", d.platform, "err", err)
	}
	return render.LangOf(req.Locale)
}

// Lang returns the language to answer a request in, as the dispatcher's
// own replies are: the user's /lang setting, else the chat's language,
// else the client's locale. Adapters write every text of their own in it.
func (d *Dispatcher) Lang(ctx context.Context, req Request) render.Lang {
	return d.lang(ctx, req)
}

// Command handles a typed command such as "/play hard". Text that is not a
// command, or a command for another bot, gives an empty Reply.
func (d *Dispatcher) Command(ctx context.Context, req Request, text string) Reply {
	cmd, err := ParseCommand(text, d.botName)
	switch {
	case errors.Is(err, ErrNotCommand), errors.Is(err, ErrOtherBot):
		return Reply{}
	}
	lang := d.lang(ctx, req)
	if err != nil {
		d.svc.Refused(d.platform, ReasonBadCommand)
		return Reply{Lang: lang, Text: render.ErrorText(lang, err)}
	}
	who := d.actor(req)
	switch cmd.Name {
	case CmdStart:
		return Reply{Lang: lang, Text: render.T(lang, render.MsgWelcome)}
	case CmdHelp:
		return Reply{Lang: lang, Text: render.T(lang, render.MsgHelp) + "\n" + render.T(lang, render.MsgHelpMore)}
	case CmdPlay:
		if len(strings.Fields(text)) == 1 {
			cmd.Play = d.chatDefaults(ctx, who, cmd.Play)
		}
		v, err := d.svc.Start(ctx, who, session.StartRequest{Rules: cmd.Play.Rules, Level: cmd.Play.Level, Side: cmd.Play.Side})
		if errors.Is(err, session.ErrAlreadyPlaying) {
			// Show the running game again, below the notice.
			return Reply{Lang: lang, Text: render.ErrorText(lang, err), Game: &v}
		}
		if err != nil {
			return d.refuse(lang, v, err, true)
		}
		return Reply{Lang: lang, Game: &v}
	case CmdResign:
		v, err := d.mine(ctx, who)
		if errors.Is(err, session.ErrNotFound) {
			return Reply{Lang: lang, Text: render.T(lang, render.MsgNoGame)}
		}
		if err == nil {
			v, err = d.svc.Resign(ctx, who, v.ID())
		}
		if err != nil {
			return d.refuse(lang, v, err, true)
		}
		return Reply{Lang: lang, Game: &v, Edit: v.Message()}
	case CmdDuel:
		return d.duel(ctx, lang, who, cmd.Duel, session.User{Name: cmd.Duel.Opponent})
	case CmdAccept, CmdDecline, CmdCancel:
		return d.answer(ctx, lang, who, cmd.Name)
	case CmdRematch:
		last, err := d.svc.Last(ctx, who)
		if errors.Is(err, session.ErrNotFound) {
			return Reply{Lang: lang, Text: render.T(lang, render.MsgNoFinishedGame)}
		}
		if err != nil {
			return d.refuse(lang, last, err, true)
		}
		return d.rematch(ctx, lang, who, last.ID(), true)
	case CmdStats:
		return d.stats(ctx, lang, who)
	case CmdTop:
		return d.top(ctx, lang, who, cmd.Board)
	case CmdLang:
		if err := d.svc.SetUserSettings(ctx, d.platform, req.User.ID, session.UserSettings{Lang: cmd.Lang}); err != nil {
			return d.refuse(lang, session.View{}, err, true)
		}
		lang = render.Lang(cmd.Lang)
		return Reply{Lang: lang, Text: render.T(lang, render.MsgLangSet)}
	}
	return Reply{Lang: lang, Text: render.T(lang, render.MsgUnknownCommand, text)}
}

// chatDefaults returns the arguments of a bare /play with the chat's
// default game and level, where the chat has set them.
func (d *Dispatcher) chatDefaults(ctx context.Context, who session.Actor, p PlayArgs) PlayArgs {
	cs, err := d.svc.ChatSettings(ctx, d.platform, who.Chat)
	if err != nil {
		d.log.Warn("reading chat settings", "platform", d.platform, "err", err)
		return p
	}
	if cs.Rules != (engine.Rules{}) {
		p.Rules = cs.Rules
	}
	if cs.Level != 0 {
		p.Level = cs.Level
	}
	return p
}

// Duel makes the challenge of args (its rules and side; args.Opponent is
// not read) addressed to opponent, who is matched by ID when it has one,
// else by Name; the zero User makes an open challenge. Platforms whose
// commands name a member directly, such as a Discord user option, call it
// instead of Command, so that the challenge is bound to the member's id.
// The adapter shows the challenge as a new message.
func (d *Dispatcher) Duel(ctx context.Context, req Request, args DuelArgs, opponent session.User) Reply {
	return d.duel(ctx, d.lang(ctx, req), d.actor(req), args, opponent)
}

// duel makes a challenge; the adapter shows it as a new message.
func (d *Dispatcher) duel(ctx context.Context, lang render.Lang, who session.Actor, args DuelArgs, opp session.User) Reply {
	self := opp.ID != "" && opp.ID == who.User.ID
	if opp.ID == "" && opp.Name != "" {
		self = strings.EqualFold(opp.Name, who.User.Name) || opp.Name == who.User.ID
	}
	if self {
		return Reply{Lang: lang, Text: render.T(lang, render.MsgDuelSelf)}
	}
	v, err := d.svc.Challenge(ctx, who, session.ChallengeRequest{
		Rules: args.Rules, Opponent: opp, Side: args.Side,
	})
	if err != nil {
		return d.refuse(lang, v, err, true)
	}
	return Reply{Lang: lang, Game: &v}
}

// answer accepts, declines or cancels the newest open challenge in the
// chat that the user may answer that way: for /accept one addressed to
// them, else one open to anyone; for /decline one addressed to them; for
// /cancel their own.
func (d *Dispatcher) answer(ctx context.Context, lang render.Lang, who session.Actor, name string) Reply {
	live, err := d.svc.Live(ctx, who)
	if err != nil {
		return d.refuse(lang, session.View{}, err, true)
	}
	var target, fallback session.View
	for _, v := range live {
		if v.Status() != session.Open {
			continue
		}
		mine := v.Seat(v.Challenger()).User.ID == who.User.ID
		to := v.Seat(v.Challenger().Opponent()).User
		addressed := to.ID != "" || to.Name != ""
		switch {
		case name == CmdCancel && mine, name != CmdCancel && !mine && addressed:
			target = v
		case name == CmdAccept && !mine && !addressed:
			fallback = v
		}
	}
	if target.ID() == "" {
		target = fallback
	}
	if target.ID() == "" {
		return Reply{Lang: lang, Text: render.T(lang, render.MsgNoChallenge)}
	}
	return d.answerGame(ctx, lang, who, name, target.ID(), true)
}

// answerGame applies /accept, /decline or /cancel to a challenge, editing
// its message.
func (d *Dispatcher) answerGame(ctx context.Context, lang render.Lang, who session.Actor, name string, id session.GameID, typed bool) Reply {
	act := map[string]func(context.Context, session.Actor, session.GameID) (session.View, error){
		CmdAccept: d.svc.Accept, CmdDecline: d.svc.Decline, CmdCancel: d.svc.Cancel,
	}[name]
	v, err := act(ctx, who, id)
	if err != nil {
		return d.refuse(lang, v, err, typed)
	}
	return Reply{Lang: lang, Game: &v, Edit: v.Message()}
}

// rematch starts (or finds) the rematch of a finished game. A rematch
// already shown edits its message; a new one is a new message.
func (d *Dispatcher) rematch(ctx context.Context, lang render.Lang, who session.Actor, id session.GameID, typed bool) Reply {
	v, err := d.svc.Rematch(ctx, who, id)
	if errors.Is(err, session.ErrAlreadyPlaying) {
		return Reply{Lang: lang, Text: render.ErrorText(lang, err), Game: &v, Edit: v.Message()}
	}
	if err != nil {
		return d.refuse(lang, v, err, typed)
	}
	return Reply{Lang: lang, Game: &v, Edit: v.Message()}
}

// stats answers /stats: the user's rating and results by game family and
// opponent.
func (d *Dispatcher) stats(ctx context.Context, lang render.Lang, who session.Actor) Reply {
	st, err := d.svc.Stats(ctx, d.platform, who.User.ID)
	if err != nil {
		return d.refuse(lang, session.View{}, err, true)
	}
	name := render.SeatName(session.Seat{User: who.User}, lang)
	lines := []string{render.T(lang, render.MsgStatsHeader, name, int(math.Round(st.Rating)), st.Duels)}
	for _, f := range session.Families {
		for _, o := range session.Opponents {
			t := st.Result(f, o)
			if t.Games() == 0 {
				continue
			}
			opp := render.T(lang, render.MsgVsPeople)
			if o != session.VsPeople {
				opp = render.T(lang, render.MsgAI, render.LevelName(lang, o.Level()))
			}
			lines = append(lines, render.T(lang, render.MsgStatsLine, render.FamilyName(lang, f), opp, t.Wins, t.Losses, t.Draws))
		}
	}
	if len(lines) == 1 {
		lines = append(lines, render.T(lang, render.MsgStatsNone))
	}
	return Reply{Lang: lang, Text: strings.Join(lines, "\n")}
}

// topSize is how many players /top lists.
const topSize = 10

// top answers /top: the chat's leaderboard and the user's rank on it.
func (d *Dispatcher) top(ctx context.Context, lang render.Lang, who session.Actor, by session.Board) Reply {
	all, err := d.svc.Leaderboard(ctx, d.platform, who.Chat, by)
	if err != nil {
		return d.refuse(lang, session.View{}, err, true)
	}
	title := map[session.Board]render.Key{session.ByRating: render.MsgTopRating, session.ByHardWins: render.MsgTopHard}[by]
	lines := []string{render.T(lang, title)}
	myRank := 0
	for i, st := range all {
		if i < topSize {
			name := render.SeatName(session.Seat{User: st.Stats.User}, lang)
			lines = append(lines, render.T(lang, render.MsgTopLine, st.Rank, name, int(math.Round(by.Score(st.Stats)))))
		}
		if st.Stats.User.ID == who.User.ID {
			myRank = st.Rank
		}
	}
	switch {
	case len(all) == 0:
		lines = append(lines, render.T(lang, render.MsgTopEmpty))
	case myRank > 0:
		lines = append(lines, render.T(lang, render.MsgYourRank, myRank))
	}
	return Reply{Lang: lang, Text: strings.Join(lines, "\n")}
}

// Resume returns the user's running game in the chat to show again, or an
// empty Reply when there is none.
func (d *Dispatcher) Resume(ctx context.Context, req Request) Reply {
	v, err := d.mine(ctx, d.actor(req))
	if err != nil {
		return Reply{}
	}
	return Reply{Lang: d.lang(ctx, req), Game: &v}
}

// mine returns the running game a typed move or /resign is for: the
// user's game against the AI in the chat, else their newest duel where it
// is their turn, else their newest duel; ErrNotFound when they play none.
func (d *Dispatcher) mine(ctx context.Context, who session.Actor) (session.View, error) {
	v, err := d.svc.Running(ctx, who)
	if !errors.Is(err, session.ErrNotFound) {
		return v, err
	}
	live, err := d.svc.Live(ctx, who)
	if err != nil {
		return session.View{}, err
	}
	var best session.View
	for _, v := range live {
		me := v.SideOf(who.User.ID)
		if v.Status() != session.Running || me == 0 {
			continue
		}
		if best.ID() == "" || v.ToMove() == me || best.ToMove() != me {
			best = v
		}
	}
	if best.ID() == "" {
		return session.View{}, fmt.Errorf("adapters: no running game of %q: %w", who.User.ID, session.ErrNotFound)
	}
	return best, nil
}

// Tap handles the callback data of a tapped button on message
// req.Message.
func (d *Dispatcher) Tap(ctx context.Context, req Request, data string) Reply {
	lang := d.lang(ctx, req)
	a, err := DecodeAction(data)
	if err != nil {
		d.svc.Refused(d.platform, ReasonBadCallback)
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgBadCallback)}
	}
	who := d.actor(req)
	var v session.View
	switch a.Kind {
	case render.Place:
		v, err = d.svc.Place(ctx, who, session.PlaceRequest{Game: a.Game, MoveNo: a.MoveNo, Cell: a.Cell})
	case render.Resign:
		v, err = d.svc.Resign(ctx, who, a.Game)
	case render.Accept:
		v, err = d.svc.Accept(ctx, who, a.Game)
	case render.Decline:
		v, err = d.svc.Decline(ctx, who, a.Game)
	case render.Cancel:
		v, err = d.svc.Cancel(ctx, who, a.Game)
	case render.Rematch:
		return d.rematch(ctx, lang, who, a.Game, false)
	case render.Scroll:
		// Moving the window changes no game; anyone in the game's chat
		// may move it.
		v, err = d.svc.Game(ctx, a.Game)
		if err == nil && (v.Platform() != d.platform || v.Chat() != req.Chat) {
			err = fmt.Errorf("adapters: scroll game %s from another chat: %w", a.Game, session.ErrNotFound)
		}
		if err != nil {
			return d.refuse(lang, session.View{}, err, false)
		}
		return Reply{Lang: lang, Game: &v, Edit: req.Message, Window: &a.Window}
	default:
		return Reply{Lang: lang}
	}
	if err != nil {
		r := d.refuse(lang, v, err, false)
		if r.Game == nil && (errors.Is(err, session.ErrStale) || errors.Is(err, session.ErrGameOver)) {
			r.Game = d.current(ctx, req, a.Game)
		}
		if r.Game != nil {
			r.Edit = req.Message
		}
		return r
	}
	return Reply{Lang: lang, Game: &v, Edit: req.Message}
}

// current returns the game of a stale tap, to refresh the tapped message
// with: a board left behind (say by a crash between the commit of a move
// and the edit of its message) catches up on the next tap. It returns nil
// for a game that is not the request's chat's.
func (d *Dispatcher) current(ctx context.Context, req Request, id session.GameID) *session.View {
	v, err := d.svc.Game(ctx, id)
	if err != nil || v.Platform() != d.platform || v.Chat() != req.Chat {
		return nil
	}
	return &v
}

// Expired returns the reply that updates the message of a game the
// session's sweeper ended (Config.OnExpire), in its players' language:
// the language every person in the game has set with /lang (or that
// their chat has), else the chat's language, else English. Every
// platform shows an expiry with it.
func (d *Dispatcher) Expired(ctx context.Context, v session.View) Reply {
	return Reply{Lang: d.playersLang(ctx, v), Game: &v, Edit: v.Message()}
}

// playersLang returns the language to show a game in when no request
// says: the one its people agree on, else the chat's, else English.
func (d *Dispatcher) playersLang(ctx context.Context, v session.View) render.Lang {
	var langs []string
	for _, s := range []engine.Stone{engine.Black, engine.White} {
		seat := v.Seat(s)
		if seat.IsAI() || seat.User.ID == "" {
			continue
		}
		l, err := d.svc.Lang(ctx, session.Actor{Platform: d.platform, Chat: v.Chat(), User: seat.User})
		if err != nil {
			d.log.Warn("reading language settings", "platform", d.platform, "err", err)
		}
		langs = append(langs, l)
	}
	if len(langs) > 0 && langs[0] != "" && (len(langs) == 1 || langs[1] == langs[0]) {
		return render.LangOf(langs[0])
	}
	if cs, err := d.svc.ChatSettings(ctx, d.platform, v.Chat()); err == nil && cs.Lang != "" {
		return render.LangOf(cs.Lang)
	}
	return render.English
}

// Move handles typed text that may be a coordinate such as "h8": a stone
// in the user's running game in the chat (against the AI, else the duel
// where it is their turn). Text that is not a coordinate, or a user with
// no running game, gives an empty Reply, so that ordinary chat is left
// alone.
func (d *Dispatcher) Move(ctx context.Context, req Request, text string) Reply {
	text = strings.TrimSpace(text)
	if len(text) == 0 || len(text) > 4 {
		return Reply{}
	}
	v, err := d.mine(ctx, d.actor(req))
	if err != nil {
		return Reply{}
	}
	lang := d.lang(ctx, req)
	p, err := render.ParseCoord(text, v.Rules())
	if err != nil {
		if looksLikeCoord(text) {
			d.svc.Refused(d.platform, ReasonBadCoord)
			return Reply{Lang: lang, Text: render.T(lang, render.MsgBadCoord, text)}
		}
		return Reply{}
	}
	v, err = d.svc.Place(ctx, d.actor(req), session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: p})
	if err != nil {
		return d.refuse(lang, v, err, true)
	}
	return Reply{Lang: lang, Game: &v, Edit: v.Message()}
}

// Bind records that message shows the game, so that later typed moves
// and commands edit it.
func (d *Dispatcher) Bind(ctx context.Context, id session.GameID, message string) error {
	_, err := d.svc.BindMessage(ctx, id, message)
	return err
}

// looksLikeCoord reports whether text is a letter and digits in either
// order, such as a coordinate off the board.
func looksLikeCoord(text string) bool {
	t := strings.ToLower(strings.ReplaceAll(text, " ", ""))
	if len(t) < 2 {
		return false
	}
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' }
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	return (isLetter(t[0]) && digits(t[1:])) || (isLetter(t[len(t)-1]) && digits(t[:len(t)-1]))
}

// refuse turns an error into a reply: a chat message for typed commands,
// a private notice for taps. A game that expired as the action came in
// (v, with ErrExpired) is shown in its final state. Errors that are not
// refusals are logged.
func (d *Dispatcher) refuse(lang render.Lang, v session.View, err error, typed bool) Reply {
	msg := render.ErrorText(lang, err)
	if msg == render.T(lang, render.MsgInternal) {
		d.log.Error("action failed", "platform", d.platform, "err", err)
	}
	r := Reply{Lang: lang, Notice: msg}
	if typed {
		r = Reply{Lang: lang, Text: msg}
	}
	if errors.Is(err, session.ErrExpired) && v.ID() != "" {
		r.Game, r.Edit = &v, v.Message()
	}
	return r
}
