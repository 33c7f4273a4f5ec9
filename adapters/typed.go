package adapters

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Text decides what typed text comes to: a command such as "/play hard",
// or a coordinate such as "h8" in the game the user last saw or touched
// in the chat. Text that is neither, a command for another bot, or a
// coordinate from a user with no game, comes to the empty Decision, so
// that ordinary chat is left alone. Full-width forms read as their ASCII
// (FoldWidth).
func (d *Dispatcher) Text(ctx context.Context, req Request, text string) Decision {
	text = FoldWidth(text)
	if strings.HasPrefix(strings.TrimSpace(text), "/") {
		return d.decide(ctx, req, "", func(b *builder) Decision { return b.command(text) })
	}
	return d.decide(ctx, req, "", func(b *builder) Decision { return b.move(text) })
}

// MoveCommand decides a command that names a cell, such as Discord's
// /move: as a typed coordinate, but text that places no stone is
// answered too, with render.MsgNoGame when the user plays no running game
// in the chat, else render.MsgBadCoord.
func (d *Dispatcher) MoveCommand(ctx context.Context, req Request, text string) Decision {
	text = FoldWidth(text)
	return d.decide(ctx, req, "", func(b *builder) Decision {
		if dec := b.move(text); !dec.Empty() {
			return dec
		}
		if t, err := b.target(); err != nil || (t.game.ID() == "" && len(t.choose) == 0) {
			return b.say(render.T(b.lang, render.MsgNoGame), nil)
		}
		return b.say(render.T(b.lang, render.MsgBadCoord, strings.TrimSpace(text)), nil)
	})
}

// command decides a typed command. Text that is not a command, or a
// command for another bot, comes to nothing.
func (b *builder) command(text string) Decision {
	cmd, err := ParseCommand(text, b.d.botName)
	switch {
	case errors.Is(err, ErrNotCommand), errors.Is(err, ErrOtherBot):
		return Decision{}
	case err != nil:
		b.refused(ReasonBadCommand)
		return b.say(render.ErrorText(b.lang, err), nil)
	}
	lang, t := b.lang, b.t
	switch cmd.Name {
	case CmdStart:
		return b.say(render.T(lang, render.MsgWelcome), nil)
	case CmdHelp:
		return b.say(strings.Join([]string{render.T(lang, render.MsgHelp), render.T(lang, render.MsgHelpMore), render.T(lang, render.MsgHelpChatLang),
			render.T(lang, render.MsgHelpUndo), render.T(lang, render.MsgHelpHint), render.T(lang, render.MsgHelpHistory), render.T(lang, render.MsgHelpGames)}, "\n"), nil)
	case CmdPlay:
		if len(strings.Fields(text)) == 1 {
			cmd.Play = b.chatDefaults(cmd.Play)
		}
		return b.play(cmd.Play, true)
	case CmdResign:
		g, instead := b.onScreen(render.Resign)
		if instead != nil {
			return *instead
		}
		v, err := t.Resign(g.ID())
		if err != nil {
			return b.refuse(v, err, true)
		}
		return b.show(v)
	case CmdUndo:
		return b.undo()
	case CmdHint:
		g, instead := b.onScreen(render.Hint)
		if instead != nil {
			return *instead
		}
		return b.hint(session.HintRequest{Game: g.ID(), MoveNo: g.MoveNo()}, PlaceOf(g), true)
	case CmdDuel:
		var to session.User
		if cmd.Duel.Opponent != "" {
			to.Handle = cmd.Duel.Opponent
		}
		return b.duel(cmd.Duel, to)
	case CmdAccept, CmdDecline, CmdCancel:
		return b.answer(cmd.Name)
	case CmdRematch:
		last, dec := b.lastFinished()
		if dec != nil {
			return *dec
		}
		return b.rematch(last.ID(), true)
	case CmdStats:
		return b.stats()
	case CmdHistory:
		return b.history()
	case CmdGames:
		return b.games()
	case CmdExport:
		last, dec := b.lastFinished()
		if dec != nil {
			return *dec
		}
		return b.attach(File{Kind: Record, Caption: render.Export(last, lang)})
	case CmdTop:
		return b.top(cmd.Board)
	case CmdLang:
		if err := t.SetUserSettings(session.UserSettings{Lang: cmd.Lang}); err != nil {
			return b.refuse(session.View{}, err, true)
		}
		b.lang = render.Lang(cmd.Lang)
		return b.say(render.T(b.lang, render.MsgLangSet), nil)
	case CmdChatLang:
		return b.chatLang(cmd.Lang)
	}
	return b.say(render.T(lang, render.MsgUnknownCommand, text), nil)
}

// Play decides a game against the AI that a front starts from buttons of
// its own (Telegram's start menu and inline results): as /play, but
// refusals are notices, and a game already running is only shown in a
// chat that is one message. The update of req takes effect once.
func (d *Dispatcher) Play(ctx context.Context, req Request, args PlayArgs) Decision {
	return d.decide(ctx, req, "", func(b *builder) Decision { return b.play(args, false) })
}

// play starts a game against the AI, or says why not.
func (b *builder) play(args PlayArgs, typed bool) Decision {
	req := session.StartRequest{Rules: args.Rules, Level: args.Level, Side: args.Side, Alone: b.req.Alone}
	v, err := b.t.Start(req)
	switch {
	case errors.Is(err, session.ErrAlreadyPlaying) && b.req.Alone:
		return b.showAt(v, Place{}, nil, false)
	case errors.Is(err, session.ErrAlreadyPlaying) && typed:
		// Show the running game again, below the notice.
		return b.showNew(v, render.ErrorText(b.lang, err))
	case errors.Is(err, session.ErrChatGames) && b.req.Alone:
		// The message is someone else's.
		return b.notice(render.T(b.lang, render.MsgNotAPlayer))
	case err != nil:
		return b.refuse(v, err, typed)
	}
	return b.showNew(v, "")
}

// chatLang answers /chatlang: it sets the chat's language to code (""
// for none) when the user may change the chat's settings (Request.Admin),
// and answers in the language the user sees from then on.
func (b *builder) chatLang(code string) Decision {
	admin := b.req.Admin != nil
	if admin {
		var err error
		if admin, err = b.req.Admin(b.ctx); err != nil {
			return b.refuse(session.View{}, fmt.Errorf("adapters: who may set the chat's language: %w", err), true)
		}
	}
	if !admin {
		b.refused(ReasonNotAdmin)
		return b.say(render.T(b.lang, render.MsgChatLangAdmin), nil)
	}
	cs, err := b.t.ChatSettings()
	if err == nil {
		cs.Lang = code
		err = b.t.SetChatSettings(cs)
	}
	if err != nil {
		return b.refuse(session.View{}, err, true)
	}
	b.lang = b.d.langOf(b.t, b.req)
	if code == "" {
		return b.say(render.T(b.lang, render.MsgChatLangAuto), nil)
	}
	return b.say(render.T(b.lang, render.MsgChatLangSet, render.LangName(render.Lang(code))), nil)
}

// chatDefaults returns the arguments of a bare /play with the chat's
// default game and level, where the chat has set them.
func (b *builder) chatDefaults(p PlayArgs) PlayArgs {
	cs, err := b.t.ChatSettings()
	if err != nil {
		b.d.log.Warn("reading chat settings", "platform", b.d.platform, "err", err)
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
func (b *builder) undo() Decision {
	v, err := b.asked()
	if errors.Is(err, session.ErrNotFound) {
		var instead *Decision
		if v, instead = b.onScreen(render.Undo); instead != nil {
			return *instead
		}
		err = nil
	}
	if err == nil {
		v, err = b.t.Undo(session.UndoRequest{Game: v.ID(), MoveNo: v.MoveNo()})
	}
	if err != nil {
		return b.refuse(v, err, true)
	}
	return b.show(v)
}

// onScreen returns the running game a typed /resign, /undo or /hint (the
// action of kind) is for (see target), or the decision to come to
// instead: no game here, the game on screen is over, or a question of
// which game, whose answers do the action.
func (b *builder) onScreen(kind render.ActionKind) (session.View, *Decision) {
	t, err := b.target()
	var dec Decision
	switch {
	case errors.Is(err, session.ErrNotFound):
		dec = b.say(render.T(b.lang, render.MsgNoGame), nil)
	case err != nil:
		dec = b.refuse(session.View{}, err, true)
	case t.ended.ID() != "":
		dec = b.say(render.T(b.lang, render.MsgTypedGameOver), nil)
	case len(t.choose) > 0:
		question := map[render.ActionKind]render.Key{render.Resign: render.MsgWhichResign, render.Undo: render.MsgWhichUndo, render.Hint: render.MsgWhichHint}[kind]
		dec = b.askWhich(render.T(b.lang, question), t.choose, func(v session.View) render.Action {
			return render.Action{Kind: kind, Game: v.ID(), MoveNo: v.MoveNo()}
		})
	default:
		return t.game, nil
	}
	return session.View{}, &dec
}

// lastFinished returns the last game the user finished in the chat, or
// the decision that answers when there is none or it cannot be read.
func (b *builder) lastFinished() (session.View, *Decision) {
	last, err := b.t.Last()
	if err == nil {
		return last, nil
	}
	dec := b.refuse(last, err, true)
	if errors.Is(err, session.ErrNotFound) {
		dec = b.say(render.T(b.lang, render.MsgNoFinishedGame), nil)
	}
	return session.View{}, &dec
}

// asked returns the user's newest running duel in the chat whose
// opponent asks for a takeback, or ErrNotFound.
func (b *builder) asked() (session.View, error) {
	live, err := b.t.Live()
	if err != nil {
		return session.View{}, err
	}
	me := b.req.User.ID
	var found session.View
	for _, v := range live {
		if side := v.SideOf(me); v.Status() == session.Running && side != engine.Empty && v.UndoAsk() == side.Opponent() {
			found = v
		}
	}
	if found.ID() == "" {
		return session.View{}, fmt.Errorf("adapters: no takeback asked of %q: %w", me, session.ErrNotFound)
	}
	return found, nil
}

// Duel decides the challenge of args (its rules and side; args.Opponent
// is not read) addressed to opponent, who is matched by ID when it has
// one, else by Handle, never by Name (a name alone is refused); the zero
// User makes an open challenge. Platforms whose messages name a member
// by id (a Telegram text mention or reply, a Discord user option) call it
// instead of the typed /duel. The challenge is a new message, or, in a
// chat that is one message, that message.
func (d *Dispatcher) Duel(ctx context.Context, req Request, args DuelArgs, opponent session.User) Decision {
	return d.decide(ctx, req, "", func(b *builder) Decision { return b.duel(args, opponent) })
}

// duel makes a challenge.
func (b *builder) duel(args DuelArgs, opp session.User) Decision {
	who := b.req.User
	self := opp.ID != "" && opp.ID == who.ID
	if h := strings.TrimPrefix(opp.Handle, "@"); opp.ID == "" && h != "" {
		self = strings.EqualFold(h, who.Handle)
	}
	if self {
		return b.say(render.T(b.lang, render.MsgDuelSelf), nil)
	}
	v, err := b.t.Challenge(session.ChallengeRequest{Rules: args.Rules, Opponent: opp, Side: args.Side, Alone: b.req.Alone})
	switch {
	case errors.Is(err, session.ErrChatGames) && b.req.Alone:
		// The message is someone else's.
		return b.notice(render.T(b.lang, render.MsgNotAPlayer))
	case err != nil:
		return b.refuse(v, err, !b.req.Alone)
	}
	return b.showNew(v, "")
}

// answer accepts, declines or cancels the newest open challenge in the
// chat that the user may answer that way: for /accept one addressed to
// them, else one open to anyone; for /decline one addressed to them; for
// /cancel their own.
func (b *builder) answer(name string) Decision {
	live, err := b.t.Live()
	if err != nil {
		return b.refuse(session.View{}, err, true)
	}
	me := b.req.User
	var target, fallback session.View
	for _, v := range live {
		if v.Status() != session.Open {
			continue
		}
		mine := v.Seat(v.Challenger()).User.ID == me.ID
		addressed := v.Seat(v.Challenger().Opponent()).User != (session.User{})
		switch {
		case name == CmdCancel && mine, name != CmdCancel && !mine && v.IsFor(me):
			target = v
		case name == CmdAccept && !mine && !addressed:
			fallback = v
		}
	}
	if target.ID() == "" {
		target = fallback
	}
	if target.ID() == "" {
		return b.say(render.T(b.lang, render.MsgNoChallenge), nil)
	}
	return b.answerGame(name, target.ID(), true)
}

// answerGame applies /accept, /decline or /cancel to a challenge, editing
// its message.
func (b *builder) answerGame(name string, id session.GameID, typed bool) Decision {
	act := map[string]func(session.GameID) (session.View, error){
		CmdAccept: b.t.Accept, CmdDecline: b.t.Decline, CmdCancel: b.t.Cancel,
	}[name]
	v, err := act(id)
	if err != nil {
		return b.refuse(v, err, typed)
	}
	return b.show(v)
}

// Join decides 🤝 Join in a chat that is one message (req.Alone): the
// tapper accepts the open challenge posted there. On a message whose
// challenge the tapper already took, it shows the game; on one with no
// challenge (forged data) it changes nothing.
func (d *Dispatcher) Join(ctx context.Context, req Request) Decision {
	return d.decide(ctx, req, "", func(b *builder) Decision {
		live, err := b.t.Live()
		if err != nil {
			return b.refuse(session.View{}, err, false)
		}
		me := b.req.User.ID
		for _, v := range live {
			switch {
			case v.Status() == session.Open && v.Seat(v.Challenger()).User.ID == me:
				return b.notice(render.T(b.lang, render.MsgInlineOwnChallenge))
			case v.Status() == session.Open:
				return b.answerGame(CmdAccept, v.ID(), false)
			case v.IsDuel() && v.Message() == b.req.Message:
				return b.show(v)
			}
		}
		b.refused(ReasonBadCallback)
		return b.notice(render.T(b.lang, render.MsgBadCallback))
	})
}

// rematch starts (or finds) the rematch of a finished game. A rematch
// already shown edits its message; a new one is a new message.
func (b *builder) rematch(id session.GameID, typed bool) Decision {
	v, err := b.t.Rematch(id)
	if errors.Is(err, session.ErrAlreadyPlaying) {
		b.show(v)
		if typed {
			return b.say(render.ErrorText(b.lang, err), nil)
		}
		return b.notice(render.ErrorText(b.lang, err))
	}
	if err != nil {
		return b.refuse(v, err, typed)
	}
	return b.show(v)
}

// Resume decides the user's running game in the chat to show again (the
// one they last saw, else the newest) as a new message; the empty
// Decision when there is none.
func (d *Dispatcher) Resume(ctx context.Context, req Request) Decision {
	return d.decide(ctx, req, "", func(b *builder) Decision {
		t, err := b.target()
		if err != nil {
			return Decision{}
		}
		v := t.game
		if v.ID() == "" && len(t.choose) > 0 {
			v = t.choose[len(t.choose)-1]
		}
		if v.ID() == "" {
			return Decision{}
		}
		return b.showNew(v, "")
	})
}

// Web decides Discord's /web: the user's own link, made by link, to the
// web board of the game their typed moves go to (of each, when that is
// not clear), for them alone; render.MsgWebNoGame when they play none in
// the chat.
func (d *Dispatcher) Web(ctx context.Context, req Request, link func(session.GameID) string) Decision {
	return d.decide(ctx, req, "", func(b *builder) Decision {
		t, err := b.target()
		games := t.choose
		switch {
		case errors.Is(err, session.ErrNotFound):
		case err != nil:
			return b.refuse(session.View{}, err, false)
		case t.game.ID() != "":
			games = []session.View{t.game}
		case t.ended.ID() != "":
			games = []session.View{t.ended}
		}
		if len(games) == 0 {
			return b.notice(render.T(b.lang, render.MsgWebNoGame))
		}
		lines := make([]string, len(games))
		for i, v := range games {
			lines[i] = render.T(b.lang, render.MsgWebLink, link(v.ID()))
		}
		return b.notice(strings.Join(lines, "\n"))
	})
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
// they last saw or touched in the chat (Turn.Focus) while it runs; else
// their one running game; else a choice between their running games;
// else, when the game they last saw has ended, that game. It returns
// ErrNotFound when the user plays nothing in the chat and has seen no
// game end.
func (b *builder) target() (aim, error) {
	me, chat := b.req.User.ID, b.req.Chat
	var seen session.View
	id, err := b.t.Focus()
	switch {
	case err == nil:
		v, err := b.t.Game(id)
		if err == nil && v.Platform() == b.d.platform && v.Chat() == chat && v.SideOf(me) != 0 {
			if v.Status() == session.Running {
				return aim{game: v}, nil
			}
			seen = v
		}
	case !errors.Is(err, session.ErrNotFound):
		return aim{}, err
	}
	running, err := b.running()
	if err != nil {
		return aim{}, err
	}
	ended := seen.ID() != "" && seen.Status().Over()
	switch {
	case len(running) == 0 && ended:
		return aim{ended: seen}, nil
	case len(running) == 0:
		return aim{}, fmt.Errorf("adapters: no running game of %q: %w", me, session.ErrNotFound)
	case len(running) == 1:
		return aim{game: running[0]}, nil
	}
	return aim{choose: running}, nil
}

// askWhich asks question: which of games an action is for, with a button
// per game that does the action then returns for the game in it.
func (b *builder) askWhich(question string, games []session.View, then func(session.View) render.Action) Decision {
	kb := render.ChoiceKeyboard(games, b.lang, then)
	return b.say(question, &kb)
}

// running returns the user's running games in the chat, oldest first.
func (b *builder) running() ([]session.View, error) {
	live, err := b.t.Live()
	if err != nil {
		return nil, err
	}
	var running []session.View
	for _, v := range live {
		if v.Status() == session.Running && v.SideOf(b.req.User.ID) != 0 {
			running = append(running, v)
		}
	}
	return running, nil
}

// games answers /games: the user's running games in the chat, with a
// button each that shows it as a new message, or that there is none.
func (b *builder) games() Decision {
	running, err := b.running()
	if err != nil {
		return b.refuse(session.View{}, err, true)
	}
	if len(running) == 0 {
		return b.say(render.T(b.lang, render.MsgNoGame), nil)
	}
	kb := render.ChoiceKeyboard(running, b.lang, nil)
	return b.say(render.T(b.lang, render.MsgGamesTitle), &kb)
}

// move decides typed text that may be a coordinate such as "h8": a stone
// in the game the user last saw or touched in the chat (see target). When
// that game has ended it says so, and when it is not clear which game is
// meant, the one game whose board has that cell, or, of several, the
// question of which, with a button per game that places the stone there.
// Text that is not a coordinate, or a user with no game, comes to
// nothing.
func (b *builder) move(text string) Decision {
	text = strings.TrimSpace(text)
	if len(text) == 0 || len(text) > 4 {
		return Decision{}
	}
	t, err := b.target()
	if err != nil {
		return Decision{}
	}
	coord := func(v session.View) bool {
		_, err := render.ParseCoord(text, v.Rules())
		return err == nil
	}
	switch {
	case t.ended.ID() != "":
		if !coord(t.ended) && !looksLikeCoord(text) {
			return Decision{}
		}
		b.refused(session.Reason(session.ErrGameOver))
		return b.say(render.T(b.lang, render.MsgTypedGameOver), nil)
	case len(t.choose) > 0:
		fits := slices.DeleteFunc(slices.Clone(t.choose), func(v session.View) bool { return !coord(v) })
		switch {
		case len(fits) > 1:
			return b.askWhich(render.T(b.lang, render.MsgWhichMove, text), fits, func(v session.View) render.Action {
				p, _ := render.ParseCoord(text, v.Rules())
				return render.Action{Kind: render.Place, Game: v.ID(), MoveNo: v.MoveNo(), Cell: p}
			})
		case len(fits) == 1:
			t.game = fits[0]
		case looksLikeCoord(text):
			b.refused(ReasonBadCoord)
			return b.say(render.T(b.lang, render.MsgBadCoord, text), nil)
		default:
			return Decision{}
		}
	}
	v := t.game
	p, err := render.ParseCoord(text, v.Rules())
	if err != nil {
		if looksLikeCoord(text) {
			b.refused(ReasonBadCoord)
			return b.say(render.T(b.lang, render.MsgBadCoord, text), nil)
		}
		return Decision{}
	}
	v, err = b.t.Place(session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: p})
	if err != nil {
		return b.refuse(v, err, true)
	}
	return b.show(v)
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
