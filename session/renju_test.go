package session

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

var renjuRules = engine.Rules{Width: 15, Height: 15, K: 5, Renju: true}

// doubleThreeMoves leave Black to move with 7,7 a double three: Black's
// pairs 5,7 6,7 and 7,5 7,6, White's stones far away.
var doubleThreeMoves = []engine.Point{{X: 5, Y: 7}, {X: 0, Y: 0}, {X: 6, Y: 7}, {X: 14, Y: 0}, {X: 7, Y: 5}, {X: 0, Y: 14}, {X: 7, Y: 6}, {X: 14, Y: 14}}

func TestRenjuPlaceRefusesFoulAndChangesNothing(t *testing.T) {
	st, _ := mustOpenStore(t)
	g := Game{
		ID: "r1", Platform: "test", Chat: "c", Rules: renjuRules,
		Seats: [2]Seat{{User: alice}, {User: bob}}, Moves: doubleThreeMoves, Status: Running, Version: 1,
	}
	if err := st.Update(context.Background(), func(kt kv.Tx) error { tx := layout{kt}; return tx.PutGame(g) }); err != nil {
		t.Fatal(err)
	}
	s := newTestService(st, 1)
	before, err := s.Game(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if f := before.Fouls(); f[engine.Point{X: 7, Y: 7}] != engine.DoubleThree || len(f) != 1 {
		t.Fatalf("Fouls() = %v, want 7,7 a double three", f)
	}
	_, err = s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: "r1", MoveNo: before.MoveNo(), Cell: engine.Point{X: 7, Y: 7}})
	var foul *engine.FoulError
	if !errors.Is(err, engine.ErrForbidden) || !errors.As(err, &foul) || foul.Foul != engine.DoubleThree {
		t.Fatalf("Place on the double three = %v, want an engine.FoulError", err)
	}
	if Reason(err) != "forbidden" {
		t.Errorf("Reason = %q, want forbidden", Reason(err))
	}
	after, err := s.Game(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if after.MoveNo() != before.MoveNo() || after.Status() != Running {
		t.Fatalf("a refused foul changed the game: move %d, %v", after.MoveNo(), after.Status())
	}
	// Another point is fine, and then White is to move: no fouls shown.
	v := mustPlay(t, s, alice, after, 8, 7)
	if v.Fouls() != nil {
		t.Fatalf("Fouls() with White to move = %v, want nil", v.Fouls())
	}
}

func TestRenjuRecords(t *testing.T) {
	g := sampleGame()
	g.Rules = renjuRules
	data, err := encodeGame(&g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"v":4`) || !strings.Contains(string(data), `"renju":true`) {
		t.Fatalf("renju record %s, want schema 4 and the rule", data)
	}
	got, err := decodeGame(data)
	if err != nil || got.Rules != renjuRules {
		t.Fatalf("decoded %+v, %v", got.Rules, err)
	}
	// A renju rule in a schema-3 record was not written by any release.
	bad := strings.Replace(string(data), `"v":4`, `"v":3`, 1)
	if _, err := decodeGame([]byte(bad)); !errors.Is(err, ErrSchema) {
		t.Errorf("renju at schema 3: err = %v, want ErrSchema", err)
	}
	// Other games keep schema 3, which older releases read.
	old := sampleGame()
	data, _ = encodeGame(&old)
	if !strings.Contains(string(data), `"v":3`) || strings.Contains(string(data), "renju") {
		t.Fatalf("freestyle record %s, want schema 3 and no renju", data)
	}

	// Stats: the renju row is stored only when it counts something, so
	// that stats without renju stay readable by older releases.
	s := sampleStats()
	data, _ = encodeStats(&s)
	var rec struct {
		Results [][]Tally `json:"res"`
	}
	if err := json.Unmarshal(data, &rec); err != nil || len(rec.Results) != 3 {
		t.Fatalf("stats without renju: %d families, %v", len(rec.Results), err)
	}
	if got, err := decodeStats(data); err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("stats round trip: %+v, %v", got, err)
	}
	s.Results[3][VsHard] = Tally{Losses: 2}
	data, _ = encodeStats(&s)
	if err := json.Unmarshal(data, &rec); err != nil || len(rec.Results) != 4 {
		t.Fatalf("stats with renju: %d families, %v", len(rec.Results), err)
	}
	if got, err := decodeStats(data); err != nil || !reflect.DeepEqual(got, s) || got.Result(engine.FamilyRenju, VsHard) != (Tally{Losses: 2}) {
		t.Fatalf("stats round trip: %+v, %v", got, err)
	}
}
