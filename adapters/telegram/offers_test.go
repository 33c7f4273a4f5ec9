package telegram

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// TestInlineOffersFilterAndTravel checks which games inline queries offer,
// and that every offer's result id and ▶️ data parse back to it within
// Telegram's 64 bytes.
func TestInlineOffersFilterAndTravel(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"gomoku hard", []string{"a.hard.gomoku.first"}},
		{"/play easy ttt second", []string{"a.easy.ttt.second"}},
		{"9x9 k4 exact", []string{"d.9x9.k4.exact.random", "a.easy.9x9.k4.exact.first", "a.medium.9x9.k4.exact.first", "a.hard.9x9.k4.exact.first"}},
		{"chess", nil},
		{"hard hard", nil},
		// As a Chinese input method types it.
		{"ｇｏｍｏｋｕ　ＨＡＲＤ", []string{"a.hard.gomoku.first"}},
	} {
		offers, err := InlineOffers(tc.query)
		var ids []string
		for _, o := range offers {
			ids = append(ids, o.ID())
		}
		if strings.Join(ids, " ") != strings.Join(tc.want, " ") || (tc.want == nil) != errors.Is(err, ErrNoOffer) {
			t.Errorf("%q: %v, %v; want %v", tc.query, ids, err, tc.want)
		}
	}
	all, err := InlineOffers("")
	if err != nil || len(all) != len(InlineGames())*4 {
		t.Fatalf("%d offers, %v", len(all), err)
	}
	long := strings.Repeat("9", 19)
	for _, o := range append(all, InlineOffer{Rules: engine.Rules{Width: 19, Height: 17, K: 5, Exact: true}, Level: engine.Medium, Side: session.RandomSide}) {
		back, err := ParseInlineOffer(o.ID())
		if err != nil || back != o {
			t.Errorf("%s parses to %+v, %v", o.ID(), back, err)
		}
		if o.Level == 0 {
			if o.StartData("1") != "" {
				t.Errorf("a challenge has ▶️ data")
			}
			continue
		}
		d := o.StartData(long)
		if d == "" || len(d) > adapters.MaxCallbackLen {
			t.Errorf("%s: start data %q", o.ID(), d)
		}
		back, owner, err := ParseInlineStart(d)
		if err != nil || back != o || owner != long {
			t.Errorf("%q parses to %+v %q %v", d, back, owner, err)
		}
	}
	for _, bad := range []string{"", "a", "a.hard", "x.hard.ttt.first", "d.hard.ttt.first", "a.ttt.first", "a.hard.ttt", "a.hard.ttt.first.first", "a.HARD.ttt.first"} {
		if _, err := ParseInlineOffer(bad); !errors.Is(err, ErrNoOffer) {
			t.Errorf("result id %q: %v", bad, err)
		}
	}
	for _, bad := range []string{"I:a.hard.ttt.first", "I:a.hard.ttt.first:", "I:d.ttt.random:1", "J", "I::1"} {
		if _, _, err := ParseInlineStart(bad); !errors.Is(err, ErrNoOffer) {
			t.Errorf("start data %q: %v", bad, err)
		}
	}
	if got := InlineTitle(render.English, all[0]); got != "Tic-tac-toe · against me (🤝 anyone may join)" {
		t.Errorf("title %q", got)
	}
}

// FuzzInlineData checks the inline result ids and ▶️ Start data: any
// input is parsed without panicking, and what parses is canonical — it
// is exactly the data the offer makes again.
func FuzzInlineData(f *testing.F) {
	for _, s := range []string{"a.hard.gomoku.first", "d.ttt.random", "I:a.easy.ttt.first:42", "I:d.ttt.random:1", "a..", "I::", "a.hard.renju.first"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		if o, err := ParseInlineOffer(data); err == nil && o.ID() != data {
			t.Fatalf("ParseInlineOffer(%q) = %+v, whose id is %q", data, o, o.ID())
		}
		if o, owner, err := ParseInlineStart(data); err == nil && o.StartData(owner) != data {
			t.Fatalf("ParseInlineStart(%q) = %+v, %q, whose data is %q", data, o, owner, o.StartData(owner))
		}
	})
}
