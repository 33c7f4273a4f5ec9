package adapters

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// history answers /history: the user's last finished games in the chat,
// or in every chat in a private one, with their replay and export
// buttons.
func (b *builder) history() Decision {
	games, err := b.t.History(b.req.Private)
	if err != nil {
		return b.refuse(session.View{}, err, true)
	}
	var kb *render.Keyboard
	if len(games) > 0 {
		k := render.HistoryKeyboard(games, b.lang)
		kb = &k
	}
	return b.say(render.History(games, b.req.User.ID, b.lang), kb)
}

// send answers ▶️ and 📋: the replay or the record of a finished game,
// to anyone in the game's chat or to one of its players anywhere (from
// /history in a private chat). It changes nothing; a redelivered update
// sends it once, and a doubled tap is told it went a moment ago
// (session.Turn.ClaimSend).
func (b *builder) send(a render.Action) Decision {
	v, err := b.t.Game(a.Game)
	if err == nil && (v.Platform() != b.d.platform || (v.Chat() != b.req.Chat && v.SideOf(b.req.User.ID) == 0)) {
		err = fmt.Errorf("adapters: game %s from another chat: %w", a.Game, session.ErrNotFound)
	}
	switch {
	case err != nil:
		return b.refuse(session.View{}, err, false)
	case !v.Status().Over():
		return b.notice(render.T(b.lang, render.MsgNoReplay))
	case a.Kind == render.ReplayGame && len(v.Moves()) == 0:
		return b.notice(render.T(b.lang, render.MsgNoReplay))
	}
	what := "replay"
	if a.Kind == render.ExportGame {
		what = "export"
	}
	ok, err := b.t.ClaimSend(v.ID(), what)
	switch {
	case err != nil:
		return b.refuse(session.View{}, err, false)
	case !ok:
		return b.done()
	case a.Kind == render.ExportGame:
		return b.attach(File{Kind: Record, Caption: render.Export(v, b.lang)})
	}
	gif, err := render.Replay(v, b.lang)
	if err != nil {
		return b.refuse(session.View{}, fmt.Errorf("adapters: replay of game %s: %w", v.ID(), err), false)
	}
	return b.attach(File{Kind: Animation, Name: fileName("replay", string(v.ID()), ".gif"), Data: gif, Caption: render.ReplayCaption(v, b.lang)})
}

// stats answers /stats: the user's rating and results by game family and
// opponent, with the progress chart above them when it has something to
// draw.
func (b *builder) stats() Decision {
	lang := b.lang
	st, err := b.t.Stats(b.req.User.ID)
	if err != nil {
		return b.refuse(session.View{}, err, true)
	}
	name := render.SeatName(session.Seat{User: b.d.actor(b.req).User}, lang)
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
	notes := aiRatings(st, lang)
	lines = append(lines, notes...)
	if bars, ok := chartBars(st); ok {
		b.chart(st, bars, notes)
	}
	return b.say(strings.Join(lines, "\n"), nil)
}

// aiRatings returns the /stats lines of the user's ratings against the
// AI, a line per family where a game counted.
func aiRatings(st session.Stats, l render.Lang) []string {
	var lines []string
	for i, f := range session.Families {
		if n := st.AIGames[i]; n > 0 {
			r := st.AIRating(f)
			lines = append(lines, render.T(l, render.MsgStatsVsAI, render.FamilyName(l, f), int(math.Round(r.Value)), int(math.Round(r.Deviation)), n))
		}
	}
	return lines
}

// chartBars returns the bars of the chart of stats st, and whether the
// chart has anything to draw (ratings or bars).
func chartBars(st session.Stats) ([]render.ChartBar, bool) {
	bars := render.ChartBars(st)
	return bars, len(st.Ratings) > 0 || len(bars) > 0
}

// chart adds the user's progress chart: their stats st, with bars (see
// chartBars) and notes, the lines of aiRatings(st).
func (b *builder) chart(st session.Stats, bars []render.ChartBar, notes []string) Decision {
	png, err := render.Chart(b.lang, st.Ratings, bars, notes)
	if err != nil {
		b.d.log.Warn("drawing a chart", "platform", b.d.platform, "err", err)
		return b.done()
	}
	kb := render.ChartKeyboard(b.lang)
	return b.attach(File{Kind: Picture, Name: fileName("chart", b.req.User.ID, ".png"), Data: png, Caption: render.ChartCaption(b.lang, st.Ratings, bars), Buttons: &kb})
}

// fileName returns the name of a file sent: kind, a dash, id and ext,
// with every letter of id but ASCII letters, digits, "-", "_" and "."
// as "_", so that the name is one a file system takes.
func fileName(kind, id, ext string) string {
	safe := []rune(id)
	for i, r := range safe {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			safe[i] = '_'
		}
	}
	return kind + "-" + string(safe) + ext
}

// chartAgain answers 📈: the tapper's own chart, once for a doubled tap,
// or a notice when it has nothing to draw.
func (b *builder) chartAgain() Decision {
	st, err := b.t.Stats(b.req.User.ID)
	if err != nil {
		return b.refuse(session.View{}, err, false)
	}
	bars, some := chartBars(st)
	if !some {
		return b.notice(render.T(b.lang, render.MsgChartEmpty))
	}
	first, err := b.t.ClaimSend("", "chart")
	if err != nil {
		return b.refuse(session.View{}, err, false)
	}
	if !first {
		return b.done()
	}
	return b.chart(st, bars, aiRatings(st, b.lang))
}

// topSize is how many players /top lists.
const topSize = 10

// top answers /top: the chat's leaderboard and the user's rank on it.
func (b *builder) top(by session.Board) Decision {
	lang := b.lang
	all, err := b.t.Leaderboard(by)
	if err != nil {
		return b.refuse(session.View{}, err, true)
	}
	title := map[session.Board]render.Key{session.ByRating: render.MsgTopRating, session.ByHardWins: render.MsgTopHard}[by]
	lines := []string{render.T(lang, title)}
	myRank := 0
	for i, st := range all {
		if i < topSize {
			name := render.SeatName(session.Seat{User: st.Stats.User}, lang)
			lines = append(lines, render.T(lang, render.MsgTopLine, st.Rank, name, int(math.Round(by.Score(st.Stats)))))
		}
		if st.Stats.User.ID == b.req.User.ID {
			myRank = st.Rank
		}
	}
	switch {
	case len(all) == 0:
		lines = append(lines, render.T(lang, render.MsgTopEmpty))
	case myRank > 0:
		lines = append(lines, render.T(lang, render.MsgYourRank, myRank))
	}
	return b.say(strings.Join(lines, "\n"), nil)
}
