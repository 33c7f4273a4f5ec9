package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

var ctx = context.Background()

func start(t *testing.T, s *Service, u User, level engine.Level, side Side) View {
	t.Helper()
	v, err := s.Begin(ctx, Request{Actor: as(u)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: level, Side: side})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestStartFirstAndSecond(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v := start(t, s, alice, engine.Hard, First)
	if v.MoveNo() != 0 || v.SideOf(alice.ID) != engine.Black || !v.Seat(engine.White).IsAI() {
		t.Fatalf("first: move %d, alice %v", v.MoveNo(), v.SideOf(alice.ID))
	}
	w := start(t, s, bob, engine.Hard, Second)
	if w.MoveNo() != 1 || w.SideOf(bob.ID) != engine.White || w.ToMove() != engine.White {
		t.Fatalf("second: the AI's first stone should be on the board: move %d", w.MoveNo())
	}
	if v.ID() == w.ID() {
		t.Fatal("two games share an id")
	}
}

func TestStartReturnsRunningGame(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v := start(t, s, alice, engine.Easy, First)
	again, err := s.Begin(ctx, Request{Actor: as(alice)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard})
	if !errors.Is(err, ErrAlreadyPlaying) || again.ID() != v.ID() {
		t.Fatalf("second start = %s, %v; want game %s with ErrAlreadyPlaying", again.ID(), err, v.ID())
	}
	// Another chat is another place.
	other, err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "d", User: alice}}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard})
	if err != nil || other.ID() == v.ID() {
		t.Fatalf("start in another chat = %s, %v", other.ID(), err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Resign(v.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Running(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after resign, Running = %v", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard}); err != nil {
		t.Fatalf("start after resign: %v", err)
	}
}

func TestStartRejectsBadRequests(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	for _, tt := range []struct {
		who Actor
		req StartRequest
	}{
		{as(alice), StartRequest{Rules: engine.Rules{Width: 2, Height: 3, K: 3}, Level: engine.Easy}},
		{as(alice), StartRequest{Rules: engine.TicTacToe(), Level: 0}},
		{as(User{}), StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy}},
	} {
		if _, err := s.Begin(ctx, Request{Actor: tt.who}).Start(tt.req); !errors.Is(err, ErrBadRequest) {
			t.Errorf("Start(%+v, %+v) = %v, want ErrBadRequest", tt.who, tt.req, err)
		}
	}
}

func TestPlaceAgainstAI(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v := start(t, s, alice, engine.Medium, First)
	v, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: 0, Y: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if v.MoveNo() != 2 || v.Version() != 2 {
		t.Fatalf("after one tap: move %d version %d, want the AI reply in the same commit", v.MoveNo(), v.Version())
	}
	if m := v.Moves(); m[0] != (engine.Point{}) || m[1] != (engine.Point{X: 1, Y: 1}) {
		t.Fatalf("moves %v: medium takes the centre", m)
	}
	replayMatches(t, v)
}

// TestRefusalsChangeNothing checks every refusal of Place gives its own
// error and leaves the stored game as it was.
func TestRefusalsChangeNothing(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	// alice (black) has played the centre; it is bob's move, number 1.
	putDuel(t, st, "duel", engine.Point{X: 1, Y: 1})

	tests := []struct {
		name string
		who  User
		req  PlaceRequest
		want error
	}{
		{"unknown game", bob, PlaceRequest{Game: "nope", MoveNo: 1}, ErrNotFound},
		{"not a player", carol, PlaceRequest{Game: "duel", MoveNo: 1}, ErrNotAPlayer},
		{"not your turn", alice, PlaceRequest{Game: "duel", MoveNo: 1}, ErrNotYourTurn},
		{"stale", bob, PlaceRequest{Game: "duel", MoveNo: 0}, ErrStale},
		{"from the future", bob, PlaceRequest{Game: "duel", MoveNo: 2}, ErrStale},
		{"cell taken", bob, PlaceRequest{Game: "duel", MoveNo: 1, Cell: engine.Point{X: 1, Y: 1}}, ErrCellTaken},
		{"off board", bob, PlaceRequest{Game: "duel", MoveNo: 1, Cell: engine.Point{X: 3, Y: 0}}, ErrOffBoard},
		{"negative", bob, PlaceRequest{Game: "duel", MoveNo: 1, Cell: engine.Point{X: 0, Y: -1}}, ErrOffBoard},
	}
	seen := map[error]string{}
	for _, tt := range tests {
		before, _ := s.Game(ctx, "duel")
		_, err := s.Begin(ctx, Request{Actor: as(tt.who)}).Place(tt.req)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
		after, _ := s.Game(ctx, "duel")
		if after.Version() != before.Version() || fmt.Sprint(after.Moves()) != fmt.Sprint(before.Moves()) {
			t.Errorf("%s changed the game: %v → %v", tt.name, before.Moves(), after.Moves())
		}
		if prev, ok := seen[tt.want]; ok && prev != tt.name && tt.want != ErrStale && tt.want != ErrOffBoard {
			t.Errorf("%s and %s share an error", prev, tt.name)
		}
		seen[tt.want] = tt.name
	}
	if len(seen) != 6 {
		t.Errorf("want 6 distinct refusals, got %d", len(seen))
	}
}

func TestDoubledTapAndFinishedGame(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	putDuel(t, st, "g")
	tap := PlaceRequest{Game: "g", MoveNo: 0, Cell: engine.Point{X: 0, Y: 0}}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(tap); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(tap); !errors.Is(err, ErrStale) {
		t.Fatalf("doubled tap: %v, want ErrStale", err)
	}
	// Play to a black win on the top row.
	for i, tap := range []PlaceRequest{
		{Game: "g", MoveNo: 1, Cell: engine.Point{X: 0, Y: 1}},
		{Game: "g", MoveNo: 2, Cell: engine.Point{X: 1, Y: 0}},
		{Game: "g", MoveNo: 3, Cell: engine.Point{X: 1, Y: 1}},
		{Game: "g", MoveNo: 4, Cell: engine.Point{X: 2, Y: 0}},
	} {
		if _, err := s.Begin(ctx, Request{Actor: as([]User{bob, alice}[i%2])}).Place(tap); err != nil {
			t.Fatalf("tap %d: %v", i, err)
		}
	}
	v, _ := s.Game(ctx, "g")
	if v.Status() != Won || v.Winner() != engine.Black || len(v.WinningLine()) != 3 {
		t.Fatalf("status %s winner %v line %v", v.Status(), v.Winner(), v.WinningLine())
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Place(PlaceRequest{Game: "g", MoveNo: 5, Cell: engine.Point{X: 2, Y: 2}}); !errors.Is(err, ErrGameOver) {
		t.Fatalf("tap on finished game: %v", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Resign("g"); !errors.Is(err, ErrGameOver) {
		t.Fatalf("resign finished game: %v", err)
	}
	after, _ := s.Game(ctx, "g")
	if after.Version() != v.Version() {
		t.Fatal("refusals on a finished game changed it")
	}
}

func TestResign(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v := start(t, s, alice, engine.Easy, Second)
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Resign(v.ID()); !errors.Is(err, ErrNotAPlayer) {
		t.Fatalf("resign by a stranger: %v", err)
	}
	r, err := s.Begin(ctx, Request{Actor: as(alice)}).Resign(v.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r.Status() != Resigned || r.Winner() != engine.Black {
		t.Fatalf("status %s winner %v: alice played white and resigned", r.Status(), r.Winner())
	}
	replayMatches(t, r)
}

func TestGameSurvivesReopen(t *testing.T) {
	st, path := mustOpenStore(t)
	s := newTestService(st, 7)
	v := start(t, s, alice, engine.Hard, First)
	v, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: 0, Y: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Bind(ctx, Binding{Game: v.ID(), Message: "msg-9"}); err != nil {
		t.Fatal(err)
	}
	checkAndClose(t, st)

	st2, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkAndClose(t, st2) })
	s2 := newTestService(st2, 100)
	got, err := s2.Begin(ctx, Request{Actor: as(alice)}).Running()
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != v.ID() || fmt.Sprint(got.Moves()) != fmt.Sprint(v.Moves()) || got.Message() != "msg-9" {
		t.Fatalf("after reopen: %s %v %q, want %s %v", got.ID(), got.Moves(), got.Message(), v.ID(), v.Moves())
	}
	// The game goes on where it was.
	cell := got.Board().LegalMoves()[0]
	if _, err := s2.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: got.ID(), MoveNo: got.MoveNo(), Cell: cell}); err != nil {
		t.Fatal(err)
	}
}

func TestViewIsImmutable(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v := start(t, s, alice, engine.Easy, Second)
	moves := v.Moves()
	moves[0] = engine.Point{X: 9, Y: 9}
	b := v.Board()
	_ = b.Play(b.LegalMoves()[0])
	if v.Moves()[0] == (engine.Point{X: 9, Y: 9}) || v.MoveNo() != 1 || v.Board().MoveCount() != 1 {
		t.Fatal("changing what a view returned changed the view")
	}
}

// TestConcurrentTapsOnOneGame sends the same move number from many
// goroutines: exactly one is applied, every other is refused as stale.
func TestConcurrentTapsOnOneGame(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v := start(t, s, alice, engine.Hard, First)
	var wg sync.WaitGroup
	errs := make([]error, 9)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: i % 3, Y: i / 3}})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrStale):
			t.Errorf("unexpected error %v", err)
		}
	}
	got, _ := s.Game(ctx, v.ID())
	if ok != 1 || got.MoveNo() != 2 || got.Version() != 2 {
		t.Fatalf("%d taps applied, game at move %d version %d; want exactly one", ok, got.MoveNo(), got.Version())
	}
	replayMatches(t, got)
}

// TestConcurrentGames plays many games at once from many goroutines, each
// with doubled taps, and checks every game replays to its stored state.
func TestConcurrentGames(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	const games = 20
	var wg sync.WaitGroup
	for i := range games {
		u := User{ID: fmt.Sprint("u", i)}
		v, err := s.Begin(ctx, Request{Actor: as(u)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Levels[i%3]})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !v.Status().Over() {
				cell := v.Board().LegalMoves()[0]
				var next View
				var applied int
				var mu sync.Mutex
				var tw sync.WaitGroup
				for range 2 { // a doubled tap
					tw.Add(1)
					go func() {
						defer tw.Done()
						w, err := s.Begin(ctx, Request{Actor: as(u)}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: cell})
						mu.Lock()
						defer mu.Unlock()
						if err == nil {
							next, applied = w, applied+1
						} else if !errors.Is(err, ErrStale) && !errors.Is(err, ErrGameOver) {
							t.Error(err)
						}
					}()
				}
				tw.Wait()
				if applied != 1 {
					t.Errorf("game %s: %d of a doubled tap applied", v.ID(), applied)
					return
				}
				v = next
			}
		}()
	}
	wg.Wait()
	err := st.View(ctx, func(kt kv.Tx) error {
		tx := layout{kt}
		for i := 1; i <= games; i++ {
			g, err := tx.Game(GameID(strconv.FormatInt(int64(i), 36)))
			if err != nil {
				return err
			}
			b, _ := g.board()
			v := newView(&g, b)
			if !v.Status().Over() {
				t.Errorf("game %s still running", g.ID)
			}
			replayMatches(t, v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestActionsFromAnotherChatFindNothing(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	putDuel(t, st, "g")
	for _, who := range []Actor{
		{Platform: "test", Chat: "elsewhere", User: alice},
		{Platform: "other", Chat: "c", User: alice},
	} {
		if _, err := s.Begin(ctx, Request{Actor: who}).Place(PlaceRequest{Game: "g", MoveNo: 0}); !errors.Is(err, ErrNotFound) {
			t.Errorf("place from %+v: %v, want ErrNotFound", who, err)
		}
		if _, err := s.Begin(ctx, Request{Actor: who}).Resign("g"); !errors.Is(err, ErrNotFound) {
			t.Errorf("resign from %+v: %v, want ErrNotFound", who, err)
		}
	}
	if v, _ := s.Game(ctx, "g"); v.Version() != 1 {
		t.Fatal("a forged action changed the game")
	}
}
