package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Rung is a step of the AI's strength ladder, from 1 (the weakest) to Rungs.
//
// The ladder is one scale from a random player to hard, with easy, medium
// and hard as named points on it (Level.Rung) and rungs between them that
// blend the levels' moves or bound hard's search:
//
//   - below easy, easy's way with more scatter and no blocking;
//   - between easy and medium, medium's move with a fixed chance per move,
//     easy's otherwise (the chance is the noise's control);
//   - between medium and hard, hard's move with a fixed chance per move,
//     medium's otherwise, then hard within fixed node budgets.
//
// Every rung below hard answers at once (at most 10 000 nodes a move: a
// few milliseconds, some 25 at most on 15×15). Each rung's strength is
// measured in Elo: see Rung.Elo, ladder, and "The strength ladder" in
// docs/engine.md.
type Rung uint8

// Rungs is the strongest rung (hard).
const Rungs Rung = 16

// rungKind is how a rung chooses its moves.
type rungKind uint8

const (
	kindLoose     rungKind = iota + 1 // easy's way, with more scatter and no blocking
	kindEasy                          // easy itself
	kindMixEasy                       // medium's move by chance, else easy's
	kindMedium                        // medium itself
	kindMixMedium                     // hard's move (within nodes) by chance, else medium's
	kindBudget                        // hard within a fixed node budget
	kindHard                          // hard itself, as Options say
)

// rungSpec is what one rung plays.
type rungSpec struct {
	kind rungKind
	// far (kindLoose) is the chance in percent that a move is drawn from
	// the cells within two of a stone instead of those next to one.
	far int
	// mix (kindMixEasy, kindMixMedium) is the chance in percent that a
	// move is the stronger player's.
	mix int
	// nodes (kindMixMedium, kindBudget) is hard's node budget a move.
	nodes int64
	// elo is the rung's measured Elo (see ladder).
	elo float64
}

// ladder is the spec of each rung, weakest first (ladder[0] is rung 1),
// with its Elo as measured by
//
//	go test ./engine -run TestLadderElo -ladder -v
//
// (engine/ladder_test.go): every pair of rungs at most three apart played
// 100 games on 15×15 freestyle, 4 200 games in all (1 min 54 s on two
// cores), in pairs from the same opening with the colours swapped: the
// six of openings[15], then three random stones near the centre (see
// ladderOpening); hard
// (Rungs) searched matchNodes (20 000) nodes a move, every player was
// seeded, so the run is reproducible. The Elos are the maximum-likelihood
// fit of a logistic (Bradley–Terry) model, a draw half a win, with easy
// anchored at 1000; the comments give the 95 % interval relative to easy
// (from the inverse of the observed information) and the rung's games.
// Keep docs/engine.md ("The strength ladder") in step.
var ladder = [Rungs]rungSpec{
	{kind: kindLoose, far: 100, elo: 786},                  // ± 59, 300 games
	{kind: kindLoose, far: 50, elo: 881},                   // ± 54, 400 games
	{kind: kindEasy, elo: 1000},                            // the anchor, 500 games
	{kind: kindMixEasy, mix: 20, elo: 1269},                // ± 62, 600 games
	{kind: kindMixEasy, mix: 40, elo: 1522},                // ± 77, 600 games
	{kind: kindMixEasy, mix: 60, elo: 1688},                // ± 85, 600 games
	{kind: kindMixEasy, mix: 80, elo: 1885},                // ± 92, 600 games
	{kind: kindMedium, elo: 2117},                          // ± 100, 600 games
	{kind: kindMixMedium, mix: 33, nodes: 1000, elo: 2245}, // ± 104, 600 games
	{kind: kindMixMedium, mix: 67, nodes: 1000, elo: 2359}, // ± 107, 600 games
	{kind: kindBudget, nodes: 1000, elo: 2525},             // ± 111, 600 games
	{kind: kindBudget, nodes: 1500, elo: 2638},             // ± 114, 600 games
	{kind: kindBudget, nodes: 2500, elo: 2716},             // ± 116, 600 games
	{kind: kindBudget, nodes: 5000, elo: 2844},             // ± 118, 500 games
	{kind: kindBudget, nodes: 10000, elo: 2909},            // ± 121, 400 games
	{kind: kindHard, elo: 3011},                            // ± 124, 300 games; 20 000 nodes a move
}

// budgetTTBytes bounds the transposition table of the rungs that search
// within a node budget: a search of 10 000 nodes stores far fewer entries
// than its 131 072 slots, and a node-bound search clears its table first.
const budgetTTBytes = 2 << 20

// Valid reports whether r is on the ladder (1..Rungs).
func (r Rung) Valid() bool { return r >= 1 && r <= Rungs }

// Rung returns the rung a named level plays at: Easy, Medium, Hard (Hard is
// Rungs). It returns 0, which is no rung, for any other level.
func (l Level) Rung() Rung {
	switch l {
	case Easy:
		return 3
	case Medium:
		return 8
	case Hard:
		return Rungs
	}
	return 0
}

// Elo returns the rung's measured Elo on 15×15 freestyle, easy anchored
// at 1000 (see ladder and docs/engine.md, "The strength ladder"), hard's
// measured at 20 000 nodes a move (at its default second a move it plays
// stronger); 0 for a rung off the ladder.
func (r Rung) Elo() float64 {
	if !r.Valid() {
		return 0
	}
	return ladder[r-1].elo
}

// NewRungPlayer returns the AI player of rung r tuned by o: o.Rand for its
// random choices; o.ThinkTime, o.MaxNodes and o.TTBytes as for hard at
// Rungs, while the rungs that bound hard by nodes use their own budget
// (and a table of at most 2 MiB). At Easy.Rung(), Medium.Rung() and
// Rungs it returns the player NewPlayerWith returns for that level. It
// returns an error wrapping ErrBadLevel for a rung off the ladder.
func NewRungPlayer(r Rung, o Options) (Player, error) {
	if !r.Valid() {
		return nil, fmt.Errorf("engine: new player at rung %d: %w", uint8(r), ErrBadLevel)
	}
	s := ladder[r-1]
	switch s.kind {
	case kindEasy:
		return NewPlayerWith(Easy, o)
	case kindMedium:
		return NewPlayerWith(Medium, o)
	case kindHard:
		return NewPlayerWith(Hard, o)
	}
	o = o.withDefaults()
	budget := o
	budget.MaxNodes, budget.TTBytes = s.nodes, min(o.TTBytes, budgetTTBytes)
	switch s.kind {
	case kindLoose:
		return easy{rng: o.Rand, far: s.far}, nil
	case kindMixEasy:
		return mixed{o.Rand, s.mix, easy{rng: o.Rand, block: easyBlockChance}, medium{o.Rand}}, nil
	case kindMixMedium:
		return mixed{o.Rand, s.mix, medium{o.Rand}, &hard{opts: budget}}, nil
	}
	return &hard{opts: budget}, nil
}

// MaxRung returns the strongest rung that can still lose a game of rules
// r. Hard plays boards of up to 16 cells perfectly, and so do the rungs
// that search within a node budget; where that game is a draw with perfect
// play (3×3 tic-tac-toe, and 4×4 four in a row), they never lose, and
// MaxRung is the strongest rung that still plays some of medium's moves.
// It is Rungs on every other board: on larger ones hard can be beaten, and
// the other boards hard solves are won by the first player, so hard loses
// them to perfect play as the second.
func MaxRung(r Rules) Rung {
	if r.Cells() <= solveMaxCells && r.Width == r.Height && r.K == r.Width {
		top := Rungs
		for top > 1 && (ladder[top-1].kind == kindBudget || ladder[top-1].kind == kindHard) {
			top--
		}
		return top
	}
	return Rungs
}

// mixed plays strong's move with chance pct percent, weak's otherwise.
type mixed struct {
	rng          *rand.Rand
	pct          int
	weak, strong Player
}

// Move returns the move of the player the draw chooses.
func (m mixed) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	if m.rng.IntN(100) < m.pct {
		return m.strong.Move(ctx, b)
	}
	return m.weak.Move(ctx, b)
}
