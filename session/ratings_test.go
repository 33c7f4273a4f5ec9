package session

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

// TestRatingHistory counts rated duels: each adds the players' new
// ratings to their stats, in the transaction that counts the result, up
// to the last MaxRatings; games against the AI add none, and a record
// written before ratings were kept reads with none.
func TestRatingHistory(t *testing.T) {
	st, _ := mustOpenStore(t)
	defer checkAndClose(t, st)
	ctx := context.Background()
	bob := User{ID: "2", Name: "bob"}
	duel := Game{ID: "d", Platform: "test", Chat: "c", Rules: engine.TicTacToe(), Seats: [2]Seat{{User: alice}, {User: bob}}, Status: Won, Winner: engine.Black}
	vsAI := duel
	vsAI.Seats[1] = Seat{AI: engine.Hard}
	count := func(g Game) {
		t.Helper()
		if err := st.Update(ctx, func(kt kv.Tx) error { tx := layout{kt}; return countResult(tx, &g) }); err != nil {
			t.Fatal(err)
		}
	}
	stats := func(u User) Stats {
		t.Helper()
		var s Stats
		if err := st.View(ctx, func(kt kv.Tx) error { tx := layout{kt}; var err error; s, err = tx.Stats("test", u.ID); return err }); err != nil {
			t.Fatal(err)
		}
		return s
	}
	count(vsAI)
	if s := stats(alice); len(s.Ratings) != 0 {
		t.Fatalf("a game against the AI kept ratings %v", s.Ratings)
	}
	for range MaxRatings + 5 {
		count(duel)
	}
	a, b := stats(alice), stats(bob)
	if len(a.Ratings) != MaxRatings || len(b.Ratings) != MaxRatings || a.Duels != MaxRatings+5 {
		t.Fatalf("kept %d and %d ratings after %d duels", len(a.Ratings), len(b.Ratings), a.Duels)
	}
	if last := a.Ratings[len(a.Ratings)-1]; last != math.Round(a.Rating) || a.Ratings[0] >= last {
		t.Errorf("alice's ratings %v… end at %v, rating %v", a.Ratings[:3], last, a.Rating)
	}
	old := `{"v":3,"user":{"id":"1","name":"alice"},"res":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"elo":1216,"duels":1}`
	s, err := decodeStats([]byte(old))
	if err != nil || len(s.Ratings) != 0 || s.Duels != 1 {
		t.Fatalf("old record: %+v, %v", s, err)
	}
	data, _ := encodeStats(&a)
	if !strings.Contains(string(data), `"hist":[`) || len(data) > 2000 {
		t.Errorf("stats record of %d bytes: %.200s", len(data), data)
	}
}
