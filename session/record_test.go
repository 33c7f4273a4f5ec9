package session

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/boltstore"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

func sampleGame() Game {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	return Game{
		ID: "a1", Platform: "telegram", Chat: "-100", Message: "77", Rules: engine.Rules{Width: 15, Height: 15, K: 5, Exact: true},
		Seats: [2]Seat{{User: alice}, {AI: engine.Hard}}, Moves: []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 14, Y: 0}},
		Status: Running, Version: 4, Seed: 99, Created: now, Updated: now.Add(time.Minute),
	}
}

func TestRecordRoundTrip(t *testing.T) {
	g := sampleGame()
	data, err := encodeGame(&g)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeGame(data)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := encodeGame(&got)
	if string(a) != string(data) {
		t.Fatalf("round trip changed the record:\n%s\n%s", data, a)
	}
	if got.Moves[2] != (engine.Point{X: 14, Y: 0}) || !got.Updated.Equal(g.Updated) || got.Seats[1].AI != engine.Hard {
		t.Fatalf("decoded %+v", got)
	}
}

func TestDecodeRefusesBadRecords(t *testing.T) {
	g := sampleGame()
	good, _ := encodeGame(&g)
	tests := map[string]string{
		"newer schema":    strings.Replace(string(good), schemaField, newerField, 1),
		"no schema":       strings.Replace(string(good), schemaField+",", ``, 1),
		"truncated":       string(good[:len(good)/2]),
		"not json":        "\x00\x01garbage",
		"empty":           "",
		"bad rules":       strings.Replace(string(good), `"w":15`, `"w":99`, 1),
		"move off board":  strings.Replace(string(good), `"moves":[112`, `"moves":[900`, 1),
		"repeated move":   strings.Replace(string(good), `"moves":[112,128,14]`, `"moves":[112,112]`, 1),
		"bad level":       strings.Replace(string(good), `"ai":3`, `"ai":7`, 1),
		"bad status":      strings.Replace(string(good), `"status":"running"`, `"status":"paused"`, 1),
		"won but running": strings.Replace(string(good), `"status":"running"`, `"status":"won"`, 1),
	}
	for name, data := range tests {
		if data == string(good) {
			t.Fatalf("%s: the replacement did not apply to %s", name, good)
		}
		if _, err := decodeGame([]byte(data)); !errors.Is(err, ErrSchema) {
			t.Errorf("%s: err = %v, want ErrSchema", name, err)
		}
	}
}

func FuzzDecodeGame(f *testing.F) {
	g := sampleGame()
	good, _ := encodeGame(&g)
	f.Add(good)
	f.Add([]byte(`{"v":1}`))
	f.Add([]byte(`{"v":1,"rules":{"w":3,"h":3,"k":3},"moves":[4,4],"status":"running"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := decodeGameHeader(data); err != nil && !errors.Is(err, ErrSchema) {
			t.Fatalf("header error %v does not wrap ErrSchema", err)
		}
		g, err := decodeGame(data)
		if err != nil {
			if !errors.Is(err, ErrSchema) {
				t.Fatalf("error %v does not wrap ErrSchema", err)
			}
			return
		}
		// Whatever decodes re-encodes to something that decodes the same.
		again, err := encodeGame(&g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeGame(again); err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
	})
}

func TestSecondOpenFailsFast(t *testing.T) {
	_, path := mustOpenStore(t)
	_, err := openBolt(path, &boltstore.Options{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, boltstore.ErrLocked) {
		t.Fatalf("second open = %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), filepath.Base(path)) {
		t.Errorf("error %q does not name the file", err)
	}
}

func TestPutGameRefusesStaleVersion(t *testing.T) {
	st, _ := mustOpenStore(t)
	g := sampleGame()
	g.Version = 1
	put := func(g Game) error {
		return st.Update(ctx, func(kt kv.Tx) error { tx := layout{kt}; return tx.PutGame(g) })
	}
	if err := put(g); err != nil {
		t.Fatal(err)
	}
	if err := put(g); !errors.Is(err, ErrConflict) {
		t.Fatalf("same version twice = %v, want ErrConflict", err)
	}
	g.Version = 3
	if err := put(g); !errors.Is(err, ErrConflict) {
		t.Fatalf("skipped version = %v, want ErrConflict", err)
	}
	g.Version = 2
	if err := put(g); err != nil {
		t.Fatal(err)
	}
}

func sampleChallenge() Game {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	return Game{
		ID: "c7", Platform: "discord", Chat: "chan", Rules: engine.TicTacToe(),
		Seats: [2]Seat{{User: User{Handle: "bob"}}, {User: alice}}, Challenger: engine.White,
		Status: Open, Version: 1, Seed: 5, Deadline: now.Add(10 * time.Minute), Rematch: "", Created: now, Updated: now,
	}
}

func TestChallengeRecordRoundTrip(t *testing.T) {
	g := sampleChallenge()
	data, err := encodeGame(&g)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeGame(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Challenger != engine.White || !got.Deadline.Equal(g.Deadline) || got.Seats[0].User != (User{Handle: "bob"}) || got.Status != Open {
		t.Fatalf("decoded %+v", got)
	}
	// A record of schema 1 (before challenges) still reads.
	old := sampleGame()
	data, _ = encodeGame(&old)
	v1 := strings.Replace(string(data), schemaField, `"v":1`, 1)
	if _, err := decodeGame([]byte(v1)); err != nil {
		t.Fatalf("schema 1 record: %v", err)
	}
}

func TestDecodeRefusesBadChallenges(t *testing.T) {
	g := sampleChallenge()
	good, _ := encodeGame(&g)
	tests := map[string]string{
		"open without challenger": strings.Replace(string(good), `"from":2,`, ``, 1),
		"challenger 3":            strings.Replace(string(good), `"from":2`, `"from":3`, 1),
		"challenger without id":   strings.Replace(string(good), `"from":2`, `"from":1`, 1),
		"moves in a challenge":    strings.Replace(string(good), `"moves":[]`, `"moves":[4]`, 1),
		"winner of a challenge":   strings.Replace(string(good), `"status":"open"`, `"status":"declined","winner":1`, 1),
		"running with a hole":     strings.Replace(string(good), `"status":"open"`, `"status":"running"`, 1),
		"version 0":               strings.Replace(string(good), `"ver":1`, `"ver":0`, 1),
		"two AIs":                 strings.Replace(strings.Replace(string(good), `{"user":{"id":"","handle":"bob"}}`, `{"ai":1}`, 1), `{"user":{"id":"1","name":"alice","handle":"alice"}}`, `{"ai":2}`, 1),
	}
	for name, data := range tests {
		if data == string(good) {
			t.Fatalf("%s: the replacement did not apply to %s", name, good)
		}
		if _, err := decodeGame([]byte(data)); !errors.Is(err, ErrSchema) {
			t.Errorf("%s: err = %v, want ErrSchema", name, err)
		}
	}
}

func sampleStats() Stats {
	s := newStats(alice)
	s.Results[1][VsHard] = Tally{Wins: 3, Losses: 1}
	s.Results[0][VsPeople] = Tally{Draws: 2}
	s.Rating, s.Duels = 1234.5, 2
	s.Ratings = []float64{1216, 1234}
	return s
}

func TestStatsAndSettingsRecords(t *testing.T) {
	s := sampleStats()
	data, err := encodeStats(&s)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeStats(data); err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("stats round trip: %+v, %v", got, err)
	}
	for name, bad := range map[string]string{
		"newer":     strings.Replace(string(data), schemaField, newerField, 1),
		"negative":  strings.Replace(string(data), `"w":3`, `"w":-3`, 1),
		"no user":   strings.Replace(string(data), `"id":"1"`, `"id":""`, 1),
		"rating":    strings.Replace(string(data), `"elo":1234.5`, `"elo":1e9`, 1),
		"families":  strings.Replace(string(data), `"res":[`, `"res":[[],`, 1),
		"truncated": string(data[:len(data)-3]),
		"ratings":   strings.Replace(string(data), `"hist":[1216,`, `"hist":[-5,`, 1),
	} {
		if bad == string(data) {
			t.Fatalf("%s: the replacement did not apply to %s", name, data)
		}
		if _, err := decodeStats([]byte(bad)); !errors.Is(err, ErrSchema) {
			t.Errorf("stats %s: err = %v, want ErrSchema", name, err)
		}
	}
	cs := ChatSettings{Lang: "zh", Rules: engine.TicTacToe(), Level: engine.Hard}
	data, _ = encodeSettings(cs)
	if got, err := decodeSettings[ChatSettings](data); err != nil || got != cs {
		t.Fatalf("settings round trip: %+v, %v", got, err)
	}
	for name, bad := range map[string]string{
		"newer": strings.Replace(string(data), schemaField, newerField, 1),
		"level": strings.Replace(string(data), `"level":3`, `"level":5`, 1),
		"rules": strings.Replace(string(data), `"w":3`, `"w":1`, 1),
		"lang":  strings.Replace(string(data), `"zh"`, `"ZH!"`, 1),
	} {
		if bad == string(data) {
			t.Fatalf("%s: the replacement did not apply to %s", name, data)
		}
		if _, err := decodeSettings[ChatSettings]([]byte(bad)); !errors.Is(err, ErrSchema) {
			t.Errorf("settings %s: err = %v, want ErrSchema", name, err)
		}
	}
}

func FuzzDecodeStats(f *testing.F) {
	s := sampleStats()
	good, _ := encodeStats(&s)
	f.Add(good)
	f.Add([]byte(`{"v":2,"user":{"id":"x"},"res":[[{"w":1},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"elo":1200}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := decodeStats(data)
		if err != nil {
			if !errors.Is(err, ErrSchema) {
				t.Fatalf("error %v does not wrap ErrSchema", err)
			}
			return
		}
		again, err := encodeStats(&st)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := decodeStats(again); err != nil || !reflect.DeepEqual(back, st) {
			t.Fatalf("re-encoded stats decode to %+v, %v", back, err)
		}
	})
}

func FuzzDecodeSettings(f *testing.F) {
	good, _ := encodeSettings(ChatSettings{Lang: "en", Rules: engine.TicTacToe(), Level: engine.Easy})
	f.Add(good)
	f.Add([]byte(`{"v":2,"s":{"lang":"zh"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := decodeSettings[ChatSettings](data)
		if err == nil {
			if cs.validate() != nil {
				t.Fatalf("decoded invalid settings %+v", cs)
			}
		} else if !errors.Is(err, ErrSchema) {
			t.Fatalf("error %v does not wrap ErrSchema", err)
		}
		us, err := decodeSettings[UserSettings](data)
		if err == nil {
			if us.validate() != nil {
				t.Fatalf("decoded invalid settings %+v", us)
			}
		} else if !errors.Is(err, ErrSchema) {
			t.Fatalf("error %v does not wrap ErrSchema", err)
		}
	})
}

// TestBadStoredRecordsAreErrors puts a corrupt record of every kind in the
// file and checks the service reports ErrSchema instead of panicking or
// starting afresh. (Listings skip such records instead: see
// unreadable_test.go.)
func TestBadStoredRecordsAreErrors(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	err := st.DB().Update(func(tx *bolt.Tx) error {
		for _, kv := range []struct{ b, k string }{
			{"games", "zz"}, {"stats", "test\x00" + alice.ID}, {"chatsettings", "test\x00c"}, {"usersettings", "test\x00" + alice.ID},
		} {
			if err := tx.Bucket([]byte(kv.b)).Put([]byte(kv.k), []byte(`{"v":99}`)); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("chatplayers")).Put([]byte("test\x00c\x00"+alice.ID), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]error{}
	_, checks["game"] = s.Game(ctx, "zz")
	_, checks["stats"] = s.Stats(ctx, "test", alice.ID)
	_, checks["chat settings"] = s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "c"}}).ChatSettings()
	_, checks["lang"] = s.Begin(ctx, Request{Actor: as(alice)}).Lang()
	for name, err := range checks {
		if !errors.Is(err, ErrSchema) {
			t.Errorf("%s: %v, want ErrSchema", name, err)
		}
	}
	// A duel ending for alice cannot count into unreadable stats: the
	// whole move is refused and the game stays as it was.
	putDuel(t, st, "d", engine.Point{X: 0, Y: 0}, engine.Point{X: 0, Y: 1}, engine.Point{X: 1, Y: 0}, engine.Point{X: 1, Y: 1})
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: "d", MoveNo: 4, Cell: engine.Point{X: 2, Y: 0}}); !errors.Is(err, ErrSchema) {
		t.Fatalf("winning move with corrupt stats: %v", err)
	}
	if v, _ := s.Game(ctx, "d"); v.Status() != Running || v.MoveNo() != 4 {
		t.Fatalf("game after the refused commit: %s at %d", v.Status(), v.MoveNo())
	}
}

// schemaField is the schema field of the records this release writes, and
// newerField that of a newer release's.
var (
	schemaField = fmt.Sprintf(`"v":%d`, schemaVersion)
	newerField  = fmt.Sprintf(`"v":%d`, schemaVersion+1)
)

// TestRecordsBeforeHandlesStillRead stores a challenge as releases before
// handles wrote it (schema 2: the addressee a seat with only the name
// "/duel @bob" gave) and checks that it reads addressed to the handle
// bob: a member merely named bob can neither accept nor decline it, the
// real @bob can. Older stats and settings records read too.
func TestRecordsBeforeHandlesStillRead(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	v, err := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Opponent: User{Handle: "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	err = st.DB().Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		data := string(b.Get([]byte(v.ID())))
		old := strings.Replace(strings.Replace(data, schemaField, `"v":2`, 1), `{"id":"","handle":"bob"}`, `{"id":"","name":"bob"}`, 1)
		old = strings.ReplaceAll(old, `,"handle":"alice"`, ``)
		if old == data || strings.Contains(old, "handle") {
			return fmt.Errorf("the record did not turn into schema 2: %s", data)
		}
		return b.Put([]byte(v.ID()), []byte(old))
	})
	if err != nil {
		t.Fatal(err)
	}
	impostor := User{ID: "9", Name: "bob"}
	for name, act := range map[string]func(*Turn, GameID) (View, error){"accept": (*Turn).Accept, "decline": (*Turn).Decline} {
		if _, err := act(turn(s, impostor), v.ID()); !errors.Is(err, ErrNotForYou) {
			t.Errorf("a member named bob without the handle: %s: %v, want ErrNotForYou", name, err)
		}
	}
	g, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(v.ID())
	if err != nil || g.Status() != Running || g.SideOf(bob.ID) == engine.Empty {
		t.Fatalf("@bob accepts the old challenge: %v, %v", g.Status(), err)
	}
	if _, err := decodeStats([]byte(`{"v":2,"user":{"id":"x","name":"x"},"res":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"elo":1200}`)); err != nil {
		t.Errorf("schema 2 stats: %v", err)
	}
	if _, err := decodeSettings[ChatSettings]([]byte(`{"v":2,"s":{"lang":"zh"}}`)); err != nil {
		t.Errorf("schema 2 settings: %v", err)
	}
}
