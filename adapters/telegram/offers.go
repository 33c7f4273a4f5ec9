package telegram

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// ErrNoOffer is returned by InlineOffers when the words of an inline
// query match no game, and by ParseInlineOffer and ParseInlineStart for
// data no offer produced.
var ErrNoOffer = errors.New("telegram: no such inline game")

// InlineOffer is one game an inline query offers: against the AI at
// Level, or, when Level is 0, an open challenge to anyone in the chat
// the message is posted in.
type InlineOffer struct {
	Rules engine.Rules
	Level engine.Level
	// Side is the poster's colour.
	Side session.Side
}

// InlineGames returns the games inline mode offers, in order:
// tic-tac-toe, 7×7, gomoku, and renju once the engine has a preset of
// that name.
func InlineGames() []engine.Rules {
	var out []engine.Rules
	for _, name := range []string{"ttt", "7x7", "gomoku", "renju"} {
		if r, ok := engine.Preset(name); ok {
			out = append(out, r)
		}
	}
	return out
}

// InlineOffers returns the games an inline query offers. Its words are
// those of /play (ParseCommand), in any order: a game keeps only that
// game, a level only games against the AI at that level, a side or
// "exact" preselect. With no words it offers every game of InlineGames,
// each as an open challenge and against the AI at each level. Words that
// /play refuses give ErrNoOffer. Full-width forms read as their ASCII
// (adapters.FoldWidth).
func InlineOffers(query string) ([]InlineOffer, error) {
	words := strings.Fields(adapters.FoldWidth(query))
	if len(words) > 0 && strings.EqualFold(words[0], "/"+adapters.CmdPlay) {
		words = words[1:]
	}
	p, err := adapters.ParsePlay(words)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrNoOffer, query, err)
	}
	var haveLevel, haveBoard, haveSide bool
	for _, w := range words {
		w = strings.ToLower(w)
		_, lerr := engine.ParseLevel(w)
		switch {
		case lerr == nil:
			haveLevel = true
		case w == "first" || w == "second" || w == "random":
			haveSide = true
		default:
			haveBoard = true
		}
	}
	games := InlineGames()
	if haveBoard {
		games = []engine.Rules{p.Rules}
	}
	levels := append([]engine.Level{0}, engine.Levels...)
	if haveLevel {
		levels = []engine.Level{p.Level}
	}
	var out []InlineOffer
	for _, r := range games {
		for _, l := range levels {
			o := InlineOffer{Rules: r, Level: l, Side: session.First}
			if l == 0 {
				o.Side = session.RandomSide
			}
			if haveSide {
				o.Side = p.Side
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// words returns the offer in the words of /play, without the level of a
// challenge.
func (o InlineOffer) words() []string {
	var w []string
	if o.Level != 0 {
		w = append(w, o.Level.String())
	}
	w = append(w, strings.Fields(o.Rules.String())...)
	return append(w, map[session.Side]string{session.First: "first", session.Second: "second", session.RandomSide: "random"}[o.Side])
}

// ID returns the offer's inline result id: "a." (against the AI) or "d."
// (a challenge) and its words joined by dots, such as "a.hard.gomoku.first".
func (o InlineOffer) ID() string {
	kind := "a"
	if o.Level == 0 {
		kind = "d"
	}
	return kind + "." + strings.Join(o.words(), ".")
}

// ParseInlineOffer parses an inline result id made by InlineOffer.ID.
func ParseInlineOffer(id string) (InlineOffer, error) {
	if len(id) > adapters.MaxCallbackLen {
		return InlineOffer{}, fmt.Errorf("%w: result id of %d bytes", ErrNoOffer, len(id))
	}
	f := strings.Split(id, ".")
	if len(f) < 3 || (f[0] != "a" && f[0] != "d") {
		return InlineOffer{}, fmt.Errorf("%w: result id %q", ErrNoOffer, id)
	}
	p, err := adapters.ParsePlay(f[1:])
	if err != nil {
		return InlineOffer{}, fmt.Errorf("%w: result id %q: %w", ErrNoOffer, id, err)
	}
	o := InlineOffer{Rules: p.Rules, Level: p.Level, Side: p.Side}
	_, lerr := engine.ParseLevel(f[1])
	if f[0] == "d" {
		if lerr == nil {
			return InlineOffer{}, fmt.Errorf("%w: result id %q: a challenge with a level", ErrNoOffer, id)
		}
		o.Level = 0
	} else if lerr != nil {
		return InlineOffer{}, fmt.Errorf("%w: result id %q: no level", ErrNoOffer, id)
	}
	if o.ID() != id {
		return InlineOffer{}, fmt.Errorf("%w: result id %q is not canonical", ErrNoOffer, id)
	}
	return o, nil
}

// InlineJoinData is the callback data of the 🤝 Join button of a posted
// challenge, before the message shows the challenge itself.
const InlineJoinData = "J"

// StartData returns the callback data of the ▶️ Start button of an offer
// against the AI posted by the user with id owner: "I:" and the offer's
// id, ":" and owner. It is "" when that is longer than callback data may
// be.
func (o InlineOffer) StartData(owner string) string {
	d := "I:" + o.ID() + ":" + owner
	if len(d) > adapters.MaxCallbackLen || o.Level == 0 {
		return ""
	}
	return d
}

// ParseInlineStart parses the data of a ▶️ Start button (StartData) into
// its offer and owner.
func ParseInlineStart(data string) (InlineOffer, string, error) {
	rest, ok := strings.CutPrefix(data, "I:")
	id, owner, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || owner == "" || len(data) > adapters.MaxCallbackLen {
		return InlineOffer{}, "", fmt.Errorf("%w: start data %q", ErrNoOffer, data)
	}
	o, err := ParseInlineOffer(id)
	if err != nil || o.Level == 0 {
		return InlineOffer{}, "", fmt.Errorf("%w: start data %q", ErrNoOffer, data)
	}
	return o, owner, nil
}

// InlineTitle returns the title of an offer in an inline query's
// results, such as "Gomoku 15×15 · against the AI (hard)".
func InlineTitle(l render.Lang, o InlineOffer) string {
	if o.Level == 0 {
		return render.T(l, render.MsgInlineVsMe, render.GameName(l, o.Rules))
	}
	return render.T(l, render.MsgInlineVsAI, render.GameName(l, o.Rules), render.LevelName(l, o.Level))
}

// InlineIntro returns the text a chosen offer posts before its game
// starts, naming the poster.
func InlineIntro(l render.Lang, o InlineOffer, poster session.User) string {
	name := render.CleanName(poster.Name)
	if o.Level == 0 {
		return render.T(l, render.MsgInlineIntroDuel, name, render.GameName(l, o.Rules))
	}
	return render.T(l, render.MsgInlineIntroAI, name, render.GameName(l, o.Rules), render.LevelName(l, o.Level))
}
