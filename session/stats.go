package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
	"github.com/boardbot/boardbot/session/rating"
)

// Opponent is whom a result was against: the AI at a level, or people.
type Opponent uint8

// The opponents stats are kept for.
const (
	VsEasy Opponent = iota
	VsMedium
	VsHard
	VsPeople
	numOpponents
)

// String returns "easy", "medium", "hard" or "people".
func (o Opponent) String() string {
	switch o {
	case VsEasy, VsMedium, VsHard:
		return engine.Level(o + 1).String()
	case VsPeople:
		return "people"
	}
	return fmt.Sprintf("opponent(%d)", uint8(o))
}

// Level returns the AI level of an opponent other than VsPeople.
func (o Opponent) Level() engine.Level { return engine.Level(o + 1) }

// Opponents lists every opponent, the AI levels weakest first.
var Opponents = []Opponent{VsEasy, VsMedium, VsHard, VsPeople}

// Families lists the game families stats are kept for.
var Families = []engine.Family{engine.FamilyTicTacToe, engine.FamilyNxN, engine.FamilyGomoku, engine.FamilyRenju}

// familyIndex returns the index of f in Families.
func familyIndex(f engine.Family) int { return max(0, slices.Index(Families, f)) }

// opponentOf returns whom seat s plays against in g.
func opponentOf(g *Game, s engine.Stone) Opponent {
	other := g.Seat(s.Opponent())
	if other.IsAI() {
		// An adaptive AI's games count under the level it played like.
		return Opponent(other.Named() - 1)
	}
	return VsPeople
}

// Tally counts the results of games.
type Tally struct {
	Wins   int `json:"w,omitempty"`
	Losses int `json:"l,omitempty"`
	Draws  int `json:"d,omitempty"`
	// Takebacks counts the games counted above that had takebacks, and
	// TakebackWins the wins among them.
	Takebacks    int `json:"t,omitempty"`
	TakebackWins int `json:"tw,omitempty"`
	// Hinted counts the games counted above that had hints, and
	// HintedWins the wins among them that had no takebacks (those are in
	// TakebackWins), so that no win is left out of the ranking twice.
	Hinted     int `json:"h,omitempty"`
	HintedWins int `json:"hw,omitempty"`
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }

// add returns t plus the other tally.
func (t Tally) add(o Tally) Tally {
	return Tally{t.Wins + o.Wins, t.Losses + o.Losses, t.Draws + o.Draws, t.Takebacks + o.Takebacks, t.TakebackWins + o.TakebackWins,
		t.Hinted + o.Hinted, t.HintedWins + o.HintedWins}
}

// InitialRating is the duel rating of a player with no duels.
const InitialRating = 1200

// EloK is the most a rating moves in one duel.
const EloK = 32

// Stats are a user's results on one platform. The zero value, with Rating
// InitialRating, is a user who has played nothing.
type Stats struct {
	User User
	// Results counts finished games by family (index in Families) and
	// opponent.
	Results [4][numOpponents]Tally
	// Rating is the Elo rating from duels; InitialRating before any.
	Rating float64
	// Duels counts the duels that changed the rating.
	Duels int
	// Ratings is the rating after each of the last MaxRatings rated
	// duels, oldest first, rounded to whole points; empty in records
	// written before it was kept.
	Ratings []float64
	// VsAI is the user's rating against the AI in each family (index in
	// Families), on the Elo scale of the strength ladder, which the
	// adaptive level plays to; the zero Rating until a game counts (see
	// AIRating). AIGames counts the games that moved it: every finished
	// game against the AI without takebacks or hints.
	VsAI    [4]rating.Rating
	AIGames [4]int
}

// StartRating is the rating against the AI of a player who has played
// none: between easy and medium.
func StartRating() float64 { return (engine.Easy.Rung().Elo() + engine.Medium.Rung().Elo()) / 2 }

// AIRating returns the user's rating against the AI in family f.
func (s Stats) AIRating(f engine.Family) rating.Rating {
	if r := s.VsAI[familyIndex(f)]; r.Deviation > 0 {
		return r
	}
	return rating.New(StartRating())
}

// AdaptiveRung returns the rung the adaptive AI plays a game of rules r
// at against this user: the one whose Elo is nearest their rating
// against the AI in its family, among the rungs that can lose on r.
func (s Stats) AdaptiveRung(r engine.Rules) engine.Rung {
	var elos []float64
	for g := engine.Rung(1); g <= engine.MaxRung(r); g++ {
		elos = append(elos, g.Elo())
	}
	return engine.Rung(rating.Pick(s.AIRating(r.Family()), elos) + 1)
}

// MaxRatings is how many ratings Stats.Ratings keeps.
const MaxRatings = 200

// addRating appends rating r to s.Ratings, dropping the oldest beyond
// MaxRatings.
func (s *Stats) addRating(r float64) {
	s.Ratings = append(s.Ratings, math.Round(r))
	if n := len(s.Ratings); n > MaxRatings {
		s.Ratings = append([]float64(nil), s.Ratings[n-MaxRatings:]...)
	}
}

// newStats returns the stats of a user who has played nothing.
func newStats(u User) Stats { return Stats{User: u, Rating: InitialRating} }

// Result returns the tally against opp in family f.
func (s Stats) Result(f engine.Family, opp Opponent) Tally {
	return s.Results[familyIndex(f)][opp]
}

// Against returns the tally against opp over every family.
func (s Stats) Against(opp Opponent) Tally {
	var t Tally
	for f := range s.Results {
		t = t.add(s.Results[f][opp])
	}
	return t
}

// Total returns the tally over every family and opponent.
func (s Stats) Total() Tally {
	var t Tally
	for _, o := range Opponents {
		t = t.add(s.Against(o))
	}
	return t
}

// eloUpdate returns the new ratings of a and b after a game where a scored
// score (1 win, 0.5 draw, 0 loss).
func eloUpdate(a, b, score float64) (float64, float64) {
	d := EloK * (score - rating.Expected(a, b))
	return a + d, b - d
}

// scoreOf returns what finished game g scored for side: 1 for a win, ½
// for a draw, 0 for a loss.
func scoreOf(g *Game, side engine.Stone) float64 {
	switch g.Winner {
	case side:
		return 1
	case engine.Empty:
		return 0.5
	}
	return 0
}

// countResult adds a finished game's result to the stats of its people,
// and for a duel moves their ratings, all in tx. Games that were never
// played, aborted duels, and AI games that expired count nothing.
func countResult(tx layout, g *Game) error {
	if !g.Status.Played() || !g.Status.Over() || g.Status == Aborted || (g.Status == Expired && g.Winner == engine.Empty) {
		return nil
	}
	f := familyIndex(g.Rules.Family())
	var people []engine.Stone
	stats := map[engine.Stone]*Stats{}
	for _, side := range []engine.Stone{engine.Black, engine.White} {
		seat := g.Seat(side)
		if seat.IsAI() {
			continue
		}
		st, err := tx.Stats(g.Platform, seat.User.ID)
		if err != nil {
			return err
		}
		st.User = seat.User // keep the latest display name
		t := &st.Results[f][opponentOf(g, side)]
		switch g.Winner {
		case engine.Empty:
			t.Draws++
		case side:
			t.Wins++
		default:
			t.Losses++
		}
		if g.Takebacks > 0 {
			t.Takebacks++
			if g.Winner == side {
				t.TakebackWins++
			}
		}
		if g.Hints > 0 {
			t.Hinted++
			if g.Winner == side && g.Takebacks == 0 {
				t.HintedWins++
			}
		}
		if ai := g.Seat(side.Opponent()); ai.IsAI() && g.Takebacks == 0 && g.Hints == 0 {
			st.VsAI[f] = st.AIRating(g.Rules.Family()).Update(ai.Strength().Elo(), scoreOf(g, side))
			st.AIGames[f]++
		}
		people = append(people, side)
		stats[side] = &st
	}
	if len(people) == 2 {
		b, w := stats[engine.Black], stats[engine.White]
		b.Rating, w.Rating = eloUpdate(b.Rating, w.Rating, scoreOf(g, engine.Black))
		b.Duels++
		w.Duels++
		b.addRating(b.Rating)
		w.addRating(w.Rating)
	}
	for _, side := range people {
		if err := tx.PutStats(g.Platform, g.Chat, *stats[side]); err != nil {
			return err
		}
	}
	return nil
}

// Board is what a leaderboard ranks by.
type Board uint8

const (
	// ByRating ranks players with at least one duel by duel rating.
	ByRating Board = iota
	// ByHardWins ranks players with at least one win against hard by
	// those wins; wins in games with takebacks or hints do not count.
	ByHardWins
)

// Standing is one line of a leaderboard.
type Standing struct {
	// Rank counts from 1; players with equal scores share a rank.
	Rank  int
	Stats Stats
}

// Score returns what the board ranks s by.
func (b Board) Score(s Stats) float64 {
	if b == ByHardWins {
		return float64(s.hardWins())
	}
	return s.Rating
}

// hardWins returns the wins against the hard AI in games without
// takebacks or hints.
func (s Stats) hardWins() int {
	t := s.Against(VsHard)
	return t.Wins - t.TakebackWins - t.HintedWins
}

// qualifies reports whether s belongs on board b.
func (b Board) qualifies(s Stats) bool {
	if b == ByHardWins {
		return s.hardWins() > 0
	}
	return s.Duels > 0
}

// rank sorts the qualifying stats by board b, best first, and numbers
// them.
func rank(b Board, all []Stats) []Standing {
	var out []Standing
	for _, s := range all {
		if b.qualifies(s) {
			out = append(out, Standing{Stats: s})
		}
	}
	slices.SortFunc(out, func(x, y Standing) int {
		if c := cmp.Compare(b.Score(y.Stats), b.Score(x.Stats)); c != 0 {
			return c
		}
		return cmp.Compare(x.Stats.User.ID, y.Stats.User.ID)
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && b.Score(out[i].Stats) == b.Score(out[i-1].Stats) {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// Stats returns the stats of the user with the id on the turn's
// platform.
func (t *Turn) Stats(userID string) (Stats, error) {
	return t.tx().Stats(t.req.Actor.Platform, userID)
}

// Stats returns a user's stats on a platform, read in a transaction of
// its own.
func (s *Service) Stats(ctx context.Context, p Platform, userID string) (Stats, error) {
	var st Stats
	err := s.kv.View(ctx, func(tx kv.Tx) error {
		var err error
		st, err = layout{tx}.Stats(p, userID)
		return err
	})
	return st, err
}

// Leaderboard returns the whole leaderboard of the players who finished a
// game in the actor's chat, best first. Players whose stats records are
// unreadable are left out and reported to Config.OnUnreadable.
func (t *Turn) Leaderboard(by Board) ([]Standing, error) {
	who := t.req.Actor
	lt := t.tx()
	ids, err := lt.ChatPlayers(who.Platform, who.Chat)
	if err != nil {
		return nil, fmt.Errorf("session: leaderboard of %s chat %q: %w", who.Platform, who.Chat, err)
	}
	var all []Stats
	for _, id := range ids {
		st, err := lt.Stats(who.Platform, id)
		if errors.Is(err, ErrSchema) {
			t.s.onUnreadable(UnreadableStats, string(who.Platform)+":"+id)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("session: leaderboard of %s chat %q: %w", who.Platform, who.Chat, err)
		}
		all = append(all, st)
	}
	return rank(by, all), nil
}
