package adapters

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
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
	// HasButton reports that the platform delivered message Message with
	// a button carrying the tap's very data, so that the message shows
	// that button's game. A tap on a message that is neither the game's
	// own nor vouched for this way is refused.
	HasButton bool
	// Admin, when set, reports whether the user may change the chat's
	// settings (/chatlang): an administrator of the chat, or anyone in a
	// private chat. Only such commands call it, so that a platform that
	// must ask its servers asks only then. Nil means the user may not.
	Admin func(context.Context) (bool, error)
	// Private reports a chat of the user alone with the bot (a private
	// chat, the terminal): /history there lists the user's games of
	// every chat.
	Private bool
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
	// the window around the last move. Adapters read it with WindowIn.
	Window *engine.Point
	// Follow says Window is where the window was when a move was made: it
	// stays there only while it holds the last move (render.Follow).
	Follow bool
	// Notice is a short refusal for the acting user only (a toast or an
	// ephemeral reply); the chat sees nothing.
	Notice string
	// Buttons, when set, go under Text: the answers to its question, such
	// as the games of render.MsgWhichGame.
	Buttons *render.Keyboard
	// Replay is a finished game whose animated replay (render.Replay,
	// with render.ReplayCaption) the adapter sends as a new message.
	Replay *session.View
	// Record is the record of a finished game (render.Export), sent as a
	// new message also in answer to a tap.
	Record string
	// Chart is the user's progress chart, sent as a new picture.
	Chart *Chart
}

// Chart is a progress chart to send: a PNG (render.Chart), its caption
// (render.ChartCaption) and the 📈 button under it.
type Chart struct {
	PNG     []byte
	Caption string
	Buttons render.Keyboard
}

// WindowIn returns the top-left cell of the window to show the reply's
// game in with layout (nil: around the last move): Window, or, when Follow
// is set, Window while it still holds the last move.
func (r Reply) WindowIn(layout render.Layout) *engine.Point {
	if r.Window == nil || !r.Follow || r.Game == nil {
		return r.Window
	}
	return render.Follow(*r.Game, layout, *r.Window)
}

// Reasons of the refusals the dispatcher reports to the session's
// observer before any game is involved (session.Reason names the others).
const (
	ReasonBadCommand  = "bad_command"
	ReasonBadCallback = "bad_callback"
	ReasonBadCoord    = "bad_coord"
	// ReasonNotAdmin is a chat setting refused to a user who is not an
	// administrator of the chat.
	ReasonNotAdmin = "not_admin"
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
	r := d.command(ctx, req, text)
	d.remember(ctx, d.actor(req), r)
	return r
}

// command handles a typed command for Command.
func (d *Dispatcher) command(ctx context.Context, req Request, text string) Reply {
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
		return Reply{Lang: lang, Text: render.T(lang, render.MsgHelp) + "\n" + render.T(lang, render.MsgHelpMore) + "\n" + render.T(lang, render.MsgHelpChatLang) + "\n" + render.T(lang, render.MsgHelpUndo) + "\n" + render.T(lang, render.MsgHelpHint) + "\n" + render.T(lang, render.MsgHelpHistory)}
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
		g, instead := d.onScreen(ctx, lang, who)
		if instead != nil {
			return *instead
		}
		v, err := d.svc.Resign(ctx, who, g.ID())
		if err != nil {
			return d.refuse(lang, v, err, true)
		}
		return Reply{Lang: lang, Game: &v, Edit: v.Message()}
	case CmdUndo:
		return d.undo(ctx, lang, who)
	case CmdHint:
		return d.typedHint(ctx, lang, who)
	case CmdDuel:
		var to session.User
		if cmd.Duel.Opponent != "" {
			to.Handle = cmd.Duel.Opponent
		}
		return d.duel(ctx, lang, who, cmd.Duel, to)
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
	case CmdHistory:
		return d.history(ctx, lang, req)
	case CmdExport:
		last, err := d.svc.Last(ctx, who)
		if errors.Is(err, session.ErrNotFound) {
			return Reply{Lang: lang, Text: render.T(lang, render.MsgNoFinishedGame)}
		}
		if err != nil {
			return d.refuse(lang, last, err, true)
		}
		return Reply{Lang: lang, Record: render.Export(last, lang)}
	case CmdTop:
		return d.top(ctx, lang, who, cmd.Board)
	case CmdLang:
		if err := d.svc.SetUserSettings(ctx, d.platform, req.User.ID, session.UserSettings{Lang: cmd.Lang}); err != nil {
			return d.refuse(lang, session.View{}, err, true)
		}
		lang = render.Lang(cmd.Lang)
		return Reply{Lang: lang, Text: render.T(lang, render.MsgLangSet)}
	case CmdChatLang:
		return d.chatLang(ctx, req, lang, cmd.Lang)
	}
	return Reply{Lang: lang, Text: render.T(lang, render.MsgUnknownCommand, text)}
}

// chatLang answers /chatlang: it sets the chat's language to code (""
// for none) when the user may change the chat's settings (Request.Admin),
// and answers in the language the user sees from then on.
func (d *Dispatcher) chatLang(ctx context.Context, req Request, lang render.Lang, code string) Reply {
	admin := req.Admin != nil
	if admin {
		var err error
		if admin, err = req.Admin(ctx); err != nil {
			return d.refuse(lang, session.View{}, fmt.Errorf("adapters: who may set the chat's language: %w", err), true)
		}
	}
	if !admin {
		d.svc.Refused(d.platform, ReasonNotAdmin)
		return Reply{Lang: lang, Text: render.T(lang, render.MsgChatLangAdmin)}
	}
	cs, err := d.svc.ChatSettings(ctx, d.platform, req.Chat)
	if err == nil {
		cs.Lang = code
		err = d.svc.SetChatSettings(ctx, d.platform, req.Chat, cs)
	}
	if err != nil {
		return d.refuse(lang, session.View{}, err, true)
	}
	lang = d.lang(ctx, req)
	if code == "" {
		return Reply{Lang: lang, Text: render.T(lang, render.MsgChatLangAuto)}
	}
	return Reply{Lang: lang, Text: render.T(lang, render.MsgChatLangSet, render.LangName(render.Lang(code)))}
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

// undo answers a typed /undo: in the duel where the opponent asks for a
// takeback it accepts it, else it takes back (or asks to take back) the
// user's last move in the game on screen (see target).
func (d *Dispatcher) undo(ctx context.Context, lang render.Lang, who session.Actor) Reply {
	v, err := d.asked(ctx, who)
	if errors.Is(err, session.ErrNotFound) {
		var instead *Reply
		if v, instead = d.onScreen(ctx, lang, who); instead != nil {
			return *instead
		}
		err = nil
	}
	if err == nil {
		v, err = d.svc.Undo(ctx, who, session.UndoRequest{Game: v.ID(), MoveNo: v.MoveNo()})
	}
	if err != nil {
		return d.refuse(lang, v, err, true)
	}
	return Reply{Lang: lang, Game: &v, Edit: v.Message()}
}

// typedHint answers a typed /hint: a hint in the game on screen (see
// target).
func (d *Dispatcher) typedHint(ctx context.Context, lang render.Lang, who session.Actor) Reply {
	g, instead := d.onScreen(ctx, lang, who)
	if instead != nil {
		return *instead
	}
	return d.hint(ctx, lang, who, session.HintRequest{Game: g.ID(), MoveNo: g.MoveNo()}, g.Message(), true)
}

// onScreen returns the running game a typed /resign, /undo or /hint is
// for (see target), or the reply to give instead: no game here, the game
// on screen is over, or a question of which game.
func (d *Dispatcher) onScreen(ctx context.Context, lang render.Lang, who session.Actor) (session.View, *Reply) {
	t, err := d.target(ctx, who)
	var r Reply
	switch {
	case errors.Is(err, session.ErrNotFound):
		r = Reply{Lang: lang, Text: render.T(lang, render.MsgNoGame)}
	case err != nil:
		r = d.refuse(lang, session.View{}, err, true)
	case t.ended.ID() != "":
		r = Reply{Lang: lang, Text: render.T(lang, render.MsgTypedGameOver)}
	case len(t.choose) > 0:
		r = d.askWhich(lang, t.choose)
	default:
		return t.game, nil
	}
	return session.View{}, &r
}

// hint asks for a hint and shows the game with it on message edit, its
// window moved to the hint. A refusal for the hints used up says how
// many the game had.
func (d *Dispatcher) hint(ctx context.Context, lang render.Lang, who session.Actor, req session.HintRequest, edit string, typed bool) Reply {
	v, err := d.svc.Hint(ctx, who, req)
	if errors.Is(err, session.ErrHintLimit) && v.Hints() > 0 {
		msg := render.T(lang, render.MsgHintLimit, v.Hints())
		if typed {
			return Reply{Lang: lang, Text: msg}
		}
		return Reply{Lang: lang, Notice: msg}
	}
	if err != nil {
		r := d.refuse(lang, v, err, typed)
		if !typed && r.Game == nil && errors.Is(err, session.ErrStale) {
			r.Game, r.Edit = d.current(ctx, req.Game), edit
		}
		return r
	}
	return Reply{Lang: lang, Game: &v, Edit: edit}
}

// asked returns the user's newest running duel in the chat whose
// opponent asks for a takeback, or ErrNotFound.
func (d *Dispatcher) asked(ctx context.Context, who session.Actor) (session.View, error) {
	live, err := d.svc.Live(ctx, who)
	if err != nil {
		return session.View{}, err
	}
	var found session.View
	for _, v := range live {
		if me := v.SideOf(who.User.ID); v.Status() == session.Running && me != engine.Empty && v.UndoAsk() == me.Opponent() {
			found = v
		}
	}
	if found.ID() == "" {
		return session.View{}, fmt.Errorf("adapters: no takeback asked of %q: %w", who.User.ID, session.ErrNotFound)
	}
	return found, nil
}

// Duel makes the challenge of args (its rules and side; args.Opponent is
// not read) addressed to opponent, who is matched by ID when it has one,
// else by Handle, never by Name (a name alone is refused); the zero User
// makes an open challenge. Platforms whose messages name a member
// directly, such as a Discord user option, a Telegram text mention or a
// reply, call it instead of Command, so that the challenge is bound to
// the member's id. The adapter shows the challenge as a new message.
func (d *Dispatcher) Duel(ctx context.Context, req Request, args DuelArgs, opponent session.User) Reply {
	who := d.actor(req)
	r := d.duel(ctx, d.lang(ctx, req), who, args, opponent)
	d.remember(ctx, who, r)
	return r
}

// duel makes a challenge; the adapter shows it as a new message.
func (d *Dispatcher) duel(ctx context.Context, lang render.Lang, who session.Actor, args DuelArgs, opp session.User) Reply {
	self := opp.ID != "" && opp.ID == who.User.ID
	if h := strings.TrimPrefix(opp.Handle, "@"); opp.ID == "" && h != "" {
		self = strings.EqualFold(h, who.User.Handle)
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
		addressed := v.Seat(v.Challenger().Opponent()).User != (session.User{})
		switch {
		case name == CmdCancel && mine, name != CmdCancel && !mine && v.IsFor(who.User):
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
			if t.Takebacks > 0 {
				lines[len(lines)-1] += render.T(lang, render.MsgStatsTakebacks, t.Takebacks, t.TakebackWins)
			}
			if t.Hinted > 0 {
				lines[len(lines)-1] += render.T(lang, render.MsgStatsHints, t.Hinted)
			}
		}
	}
	if len(lines) == 1 {
		lines = append(lines, render.T(lang, render.MsgStatsNone))
	}
	r := d.chart(lang, st)
	r.Text = strings.Join(lines, "\n")
	return r
}

// chart returns a reply with the progress chart of stats st.
func (d *Dispatcher) chart(lang render.Lang, st session.Stats) Reply {
	bars := render.ChartBars(st)
	png, err := render.Chart(st.Ratings, bars)
	if err != nil {
		d.log.Warn("drawing a chart", "platform", d.platform, "err", err)
		return Reply{Lang: lang}
	}
	return Reply{Lang: lang, Chart: &Chart{PNG: png, Caption: render.ChartCaption(lang, st.Ratings, bars), Buttons: render.ChartKeyboard(lang)}}
}

// chartAgain answers 📈: the tapper's own chart, once for a doubled tap.
func (d *Dispatcher) chartAgain(ctx context.Context, lang render.Lang, req Request) Reply {
	who := d.actor(req)
	ok, err := d.svc.ClaimSend(ctx, who, "", "chart")
	if err != nil || !ok {
		if err != nil {
			return d.refuse(lang, session.View{}, err, false)
		}
		return Reply{Lang: lang}
	}
	st, err := d.svc.Stats(ctx, d.platform, who.User.ID)
	if err != nil {
		return d.refuse(lang, session.View{}, err, false)
	}
	return d.chart(lang, st)
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

// Resume returns the user's running game in the chat to show again (the
// one they last saw, else the newest), or an empty Reply when there is
// none.
func (d *Dispatcher) Resume(ctx context.Context, req Request) Reply {
	who := d.actor(req)
	t, err := d.target(ctx, who)
	if err != nil {
		return Reply{}
	}
	v := t.game
	if v.ID() == "" && len(t.choose) > 0 {
		v = t.choose[len(t.choose)-1]
	}
	if v.ID() == "" {
		return Reply{}
	}
	r := Reply{Lang: d.lang(ctx, req), Game: &v}
	d.remember(ctx, who, r)
	return r
}

// aim is where a typed move or /resign goes: one game, or, when that is
// not clear, the running games to ask between, or the game the user last
// saw when it has ended and no other is running.
type aim struct {
	game   session.View
	choose []session.View
	ended  session.View
}

// target returns where the user's typed move or /resign goes: the game
// they last saw or touched in the chat (Service.Focus) while it runs;
// else their one running game, unless the game they last saw has ended;
// else a choice between their running games. It returns ErrNotFound when
// the user plays nothing in the chat and has seen no game end.
func (d *Dispatcher) target(ctx context.Context, who session.Actor) (aim, error) {
	var seen session.View
	id, err := d.svc.Focus(ctx, who)
	switch {
	case err == nil:
		v, err := d.svc.Game(ctx, id)
		if err == nil && v.Platform() == d.platform && v.Chat() == who.Chat && v.SideOf(who.User.ID) != 0 {
			if v.Status() == session.Running {
				return aim{game: v}, nil
			}
			seen = v
		}
	case !errors.Is(err, session.ErrNotFound):
		return aim{}, err
	}
	live, err := d.svc.Live(ctx, who)
	if err != nil {
		return aim{}, err
	}
	var running []session.View
	for _, v := range live {
		if v.Status() == session.Running && v.SideOf(who.User.ID) != 0 {
			running = append(running, v)
		}
	}
	ended := seen.ID() != "" && seen.Status().Over()
	switch {
	case len(running) == 0 && ended:
		return aim{ended: seen}, nil
	case len(running) == 0:
		return aim{}, fmt.Errorf("adapters: no running game of %q: %w", who.User.ID, session.ErrNotFound)
	case len(running) == 1 && !ended:
		return aim{game: running[0]}, nil
	}
	return aim{choose: running}, nil
}

// askWhich asks which of games a typed move or /resign is for, with a
// button per game.
func (d *Dispatcher) askWhich(lang render.Lang, games []session.View) Reply {
	kb := render.ChoiceKeyboard(games, lang)
	return Reply{Lang: lang, Text: render.T(lang, render.MsgWhichGame), Buttons: &kb}
}

// remember records the game a reply shows as the one the acting user
// last saw (Service.SetFocus), when they play it in the request's chat. A
// duel with no move yet, just accepted, is on screen for both its
// players. A failure is logged: it costs only the choice of game of a
// later typed move.
func (d *Dispatcher) remember(ctx context.Context, who session.Actor, r Reply) {
	if r.Game == nil || r.Game.Platform() != d.platform || r.Game.Chat() != who.Chat {
		return
	}
	v := *r.Game
	users := []session.User{who.User}
	if v.Status() == session.Running && v.MoveNo() == 0 {
		users = []session.User{v.Seat(engine.Black).User, v.Seat(engine.White).User}
	}
	for _, u := range users {
		if u.ID == "" || v.SideOf(u.ID) == 0 {
			continue
		}
		if err := d.svc.SetFocus(ctx, session.Actor{Platform: d.platform, Chat: who.Chat, User: u}, v.ID()); err != nil {
			d.log.Warn("recording the game on screen", "platform", d.platform, "game", v.ID(), "err", err)
		}
	}
}

// Tap handles the callback data of a tapped button on message
// req.Message. The message must show the game the data names: be the
// game's own message, or come with that button (req.HasButton), and then
// become the game's own; any other tap is refused and changes nothing, so
// that forged data cannot repaint someone else's message.
func (d *Dispatcher) Tap(ctx context.Context, req Request, data string) Reply {
	r := d.tap(ctx, req, data)
	d.remember(ctx, d.actor(req), r)
	return r
}

// tap handles a tapped button for Tap.
func (d *Dispatcher) tap(ctx context.Context, req Request, data string) Reply {
	lang := d.lang(ctx, req)
	a, err := DecodeAction(data)
	if err != nil {
		d.svc.Refused(d.platform, ReasonBadCallback)
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgBadCallback)}
	}
	if a.Kind == render.Noop && a.Game == "" {
		return Reply{Lang: lang}
	}
	if a.Kind == render.ReplayGame || a.Kind == render.ExportGame {
		return d.send(ctx, lang, req, a)
	}
	if a.Kind == render.StatsChart {
		return d.chartAgain(ctx, lang, req)
	}
	shown, err := d.svc.Game(ctx, a.Game)
	if err == nil && (shown.Platform() != d.platform || shown.Chat() != req.Chat) {
		err = fmt.Errorf("adapters: tap on game %s from another chat: %w", a.Game, session.ErrNotFound)
	}
	if err != nil {
		return d.refuse(lang, session.View{}, err, false)
	}
	if req.Message == "" || (req.Message != shown.Message() && !req.HasButton) {
		// Data naming a game that the tapped message does not show: a
		// forged button must not repaint someone else's message.
		d.svc.Refused(d.platform, ReasonBadCallback)
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgBadCallback)}
	}
	r := d.apply(ctx, lang, req, a, shown)
	if r.Game != nil && r.Game.ID() == a.Game && r.Edit == req.Message && shown.Message() != req.Message {
		// A board the game was not bound to, such as one sent just before
		// a crash: it becomes the game's own message.
		if err := d.Bind(ctx, a.Game, req.Message); err != nil {
			d.log.Warn("binding a tapped board", "platform", d.platform, "game", a.Game, "err", err)
		}
	}
	return r
}

// apply applies action a, tapped on message req.Message which shows game
// shown.
func (d *Dispatcher) apply(ctx context.Context, lang render.Lang, req Request, a render.Action, shown session.View) Reply {
	who := d.actor(req)
	var v session.View
	var err error
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
	case render.Undo:
		v, err = d.svc.Undo(ctx, who, session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo})
	case render.UndoAccept:
		v, err = d.svc.AcceptUndo(ctx, who, session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo})
	case render.UndoDecline:
		v, err = d.svc.DeclineUndo(ctx, who, session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo})
	case render.Hint:
		return d.hint(ctx, lang, who, session.HintRequest{Game: a.Game, MoveNo: a.MoveNo}, req.Message, false)
	case render.Rematch:
		return d.rematch(ctx, lang, who, a.Game, false)
	case render.Scroll:
		// Moving the window changes no game; anyone in the game's chat
		// may move it.
		return Reply{Lang: lang, Game: &shown, Edit: req.Message, Window: &a.Window}
	case render.Noop:
		return d.noop(ctx, lang, req, a)
	case render.Show:
		return d.show(ctx, lang, req, a.Game)
	default:
		return Reply{Lang: lang}
	}
	// A cell keeps the window it was tapped in (while that holds the last
	// move); other buttons show the window around the last move.
	var window *engine.Point
	if a.Kind == render.Place {
		window = &a.Window
	}
	if err != nil {
		r := d.refuse(lang, v, err, false)
		if r.Game == nil && (errors.Is(err, session.ErrStale) || errors.Is(err, session.ErrGameOver)) {
			r.Game = d.current(ctx, a.Game)
		}
		if r.Game != nil {
			r.Edit, r.Window, r.Follow = req.Message, window, window != nil
		}
		return r
	}
	return Reply{Lang: lang, Game: &v, Edit: req.Message, Window: window, Follow: window != nil}
}

// history answers /history: the user's last finished games in the chat,
// or in every chat in a private one, with their replay and export
// buttons.
func (d *Dispatcher) history(ctx context.Context, lang render.Lang, req Request) Reply {
	games, err := d.svc.History(ctx, d.actor(req), req.Private)
	if err != nil {
		return d.refuse(lang, session.View{}, err, true)
	}
	r := Reply{Lang: lang, Text: render.History(games, req.User.ID, lang)}
	if len(games) > 0 {
		kb := render.HistoryKeyboard(games, lang)
		r.Buttons = &kb
	}
	return r
}

// send answers ▶️ and 📋: the replay or the record of a finished game,
// to anyone in the game's chat or to one of its players anywhere (from
// /history in a private chat). It changes nothing, and a doubled tap or
// a redelivered update sends it once (session.Service.ClaimSend).
func (d *Dispatcher) send(ctx context.Context, lang render.Lang, req Request, a render.Action) Reply {
	v, err := d.svc.Game(ctx, a.Game)
	if err == nil && (v.Platform() != d.platform || (v.Chat() != req.Chat && v.SideOf(req.User.ID) == 0)) {
		err = fmt.Errorf("adapters: game %s from another chat: %w", a.Game, session.ErrNotFound)
	}
	switch {
	case err != nil:
		return d.refuse(lang, session.View{}, err, false)
	case !v.Status().Over():
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgNoReplay)}
	case a.Kind == render.ReplayGame && len(v.Moves()) == 0:
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgNoReplay)}
	}
	what := "replay"
	if a.Kind == render.ExportGame {
		what = "export"
	}
	ok, err := d.svc.ClaimSend(ctx, d.actor(req), v.ID(), what)
	switch {
	case err != nil:
		return d.refuse(lang, session.View{}, err, false)
	case !ok:
		return Reply{Lang: lang}
	case a.Kind == render.ExportGame:
		return Reply{Lang: lang, Record: render.Export(v, lang)}
	}
	return Reply{Lang: lang, Replay: &v}
}

// show answers an answer of render.MsgWhichGame: the game, as a new
// message (Tap then records it as the one on screen), while it runs and
// the tapper plays it.
func (d *Dispatcher) show(ctx context.Context, lang render.Lang, req Request, id session.GameID) Reply {
	v, err := d.svc.Game(ctx, id)
	if err == nil && (v.Platform() != d.platform || v.Chat() != req.Chat) {
		err = fmt.Errorf("adapters: show game %s from another chat: %w", id, session.ErrNotFound)
	}
	switch {
	case err != nil:
		return d.refuse(lang, session.View{}, err, false)
	case v.SideOf(req.User.ID) == 0:
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgNotAPlayer)}
	case v.Status() != session.Running:
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgGameOver)}
	}
	return Reply{Lang: lang, Game: &v}
}

// noop answers the tap of a cell that takes no stone: the game is over,
// or the cell is taken. A cell found empty in a running game is on a board
// left behind, which is shown again. A control that does nothing answers
// nothing.
func (d *Dispatcher) noop(ctx context.Context, lang render.Lang, req Request, a render.Action) Reply {
	if a.Game == "" {
		return Reply{Lang: lang}
	}
	v, err := d.svc.Game(ctx, a.Game)
	if err == nil && (v.Platform() != d.platform || v.Chat() != req.Chat) {
		err = fmt.Errorf("adapters: cell of game %s from another chat: %w", a.Game, session.ErrNotFound)
	}
	switch {
	case err != nil:
		return d.refuse(lang, session.View{}, err, false)
	case v.Status().Over():
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgGameOver)}
	case v.Status() != session.Running:
		return Reply{Lang: lang}
	case a.Cell.X >= v.Rules().Width || a.Cell.Y >= v.Rules().Height:
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgOffBoard)}
	case v.Board().At(a.Cell) != engine.Empty:
		return Reply{Lang: lang, Notice: render.T(lang, render.MsgCellTaken)}
	}
	return Reply{Lang: lang, Game: &v, Edit: req.Message}
}

// current returns the game of a stale tap, to refresh the tapped message
// with: a board left behind (say by a crash between the commit of a move
// and the edit of its message) catches up on the next tap. The caller
// checked that the message shows the game.
func (d *Dispatcher) current(ctx context.Context, id session.GameID) *session.View {
	v, err := d.svc.Game(ctx, id)
	if err != nil {
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
// in the game the user last saw or touched in the chat (see target). When
// that game has ended it says so, and when it is not clear which game is
// meant it asks, with a button per game. Text that is not a coordinate,
// or a user with no game, gives an empty Reply, so that ordinary chat is
// left alone.
func (d *Dispatcher) Move(ctx context.Context, req Request, text string) Reply {
	text = strings.TrimSpace(text)
	if len(text) == 0 || len(text) > 4 {
		return Reply{}
	}
	who := d.actor(req)
	t, err := d.target(ctx, who)
	if err != nil {
		return Reply{}
	}
	lang := d.lang(ctx, req)
	coord := func(v session.View) bool {
		_, err := render.ParseCoord(text, v.Rules())
		return err == nil
	}
	switch {
	case t.ended.ID() != "":
		if !coord(t.ended) && !looksLikeCoord(text) {
			return Reply{}
		}
		d.svc.Refused(d.platform, session.Reason(session.ErrGameOver))
		return Reply{Lang: lang, Text: render.T(lang, render.MsgTypedGameOver)}
	case len(t.choose) > 0:
		if !slices.ContainsFunc(t.choose, coord) && !looksLikeCoord(text) {
			return Reply{}
		}
		return d.askWhich(lang, t.choose)
	}
	v := t.game
	p, err := render.ParseCoord(text, v.Rules())
	if err != nil {
		if looksLikeCoord(text) {
			d.svc.Refused(d.platform, ReasonBadCoord)
			return Reply{Lang: lang, Text: render.T(lang, render.MsgBadCoord, text)}
		}
		return Reply{}
	}
	v, err = d.svc.Place(ctx, who, session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: p})
	if err != nil {
		return d.refuse(lang, v, err, true)
	}
	r := Reply{Lang: lang, Game: &v, Edit: v.Message()}
	d.remember(ctx, who, r)
	return r
}

// MoveCommand handles a command that names a cell, such as Discord's
// /move: as Move, but text that places no stone is answered too, with
// render.MsgNoGame when the user plays no running game in the chat, else
// render.MsgBadCoord.
func (d *Dispatcher) MoveCommand(ctx context.Context, req Request, text string) Reply {
	if r := d.Move(ctx, req, text); r != (Reply{}) {
		return r
	}
	lang := d.lang(ctx, req)
	if t, err := d.target(ctx, d.actor(req)); err != nil || (t.game.ID() == "" && len(t.choose) == 0) {
		return Reply{Lang: lang, Text: render.T(lang, render.MsgNoGame)}
	}
	return Reply{Lang: lang, Text: render.T(lang, render.MsgBadCoord, strings.TrimSpace(text))}
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
// (v, with ErrExpired) is shown in its final state. An update handled
// already (session.ErrDuplicate) gets no message: the game it changed, if
// any, is shown again as it is now, in its own message or, when it has
// none yet (the first handling stopped before showing it), a new one.
// Errors that are not refusals are logged.
func (d *Dispatcher) refuse(lang render.Lang, v session.View, err error, typed bool) Reply {
	if errors.Is(err, session.ErrDuplicate) {
		if v.ID() == "" {
			return Reply{Lang: lang}
		}
		return Reply{Lang: lang, Game: &v, Edit: v.Message()}
	}
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
