package session

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
)

// onEveryStore runs test on a bbolt file and on an embedded etcd cluster,
// each with a fresh clock; the etcd one also gives a second Service on
// the same store (another replica), which bbolt, held by one process,
// cannot.
func onEveryStore(t *testing.T, test func(t *testing.T, c *clock, one, two *Service)) {
	t.Run("bbolt", func(t *testing.T) {
		st, _ := mustOpenStore(t)
		c := newClock()
		test(t, c, newClockService(st, c, 1, Config{}), nil)
	})
	t.Run("etcd", func(t *testing.T) {
		cl := etcdtest.Start(t, 1)
		c := newClock()
		test(t, c, newClockService(cl.Store(t, "pace/"), c, 1, Config{}), newClockService(cl.Store(t, "pace/"), c, 2, Config{}))
	})
}

// reserved reserves a slot and returns how long after start it is.
func reserved(t *testing.T, s *Service, c *clock, start time.Time, chat int64, l PaceLimits) time.Duration {
	t.Helper()
	at, err := s.Reserve(ctx, "telegram", chat, l)
	if err != nil {
		t.Fatalf("reserve for chat %d: %v", chat, err)
	}
	if now := c.Now(); at.Before(now) {
		t.Fatalf("reserve for chat %d gave %v, before now %v", chat, at, now)
	}
	return at.Sub(start)
}

func TestReserveSpacesAChatsSlotsByPerAndMargin(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, two *Service) {
		l := PaceLimits{Chat: PaceRate{1, time.Second}, Margin: 250 * time.Millisecond}
		start := c.Now()
		var got []time.Duration
		for range 3 {
			got = append(got, reserved(t, one, c, start, 5, l))
		}
		// Another chat is not held up.
		got = append(got, reserved(t, one, c, start, 6, l))
		want := []time.Duration{0, 1250 * time.Millisecond, 2500 * time.Millisecond, 0}
		if !slices.Equal(got, want) {
			t.Errorf("slots %v, want %v", got, want)
		}
		// Once the clock passed them, the next slot is now.
		c.Advance(10 * time.Second)
		if d := reserved(t, one, c, start, 5, l); d != 10*time.Second {
			t.Errorf("after the slots expired: slot at %v, want now (10s)", d)
		}
	})
}

// TestReserveLeadPlacesTheSlotAhead reserves with a lead: the slot is
// that far ahead of now, and the next one spaced from it.
func TestReserveLeadPlacesTheSlotAhead(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, _ *Service) {
		l := PaceLimits{Chat: PaceRate{1, time.Second}, Lead: 300 * time.Millisecond}
		start := c.Now()
		got := []time.Duration{reserved(t, one, c, start, 5, l), reserved(t, one, c, start, 5, l)}
		if want := []time.Duration{300 * time.Millisecond, 1300 * time.Millisecond}; !slices.Equal(got, want) {
			t.Errorf("slots %v, want %v", got, want)
		}
	})
}

func TestReserveKeepsAGroupsWindowOnTopOfItsChats(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, two *Service) {
		l := PaceLimits{Chat: PaceRate{1, time.Second}, Group: PaceRate{3, 10 * time.Second}}
		start := c.Now()
		var got []time.Duration
		for range 5 {
			got = append(got, reserved(t, one, c, start, -100, l))
		}
		s := time.Second
		want := []time.Duration{0, s, 2 * s, 10 * s, 11 * s}
		if !slices.Equal(got, want) {
			t.Errorf("group slots %v, want %v", got, want)
		}
	})
}

func TestReserveSharesTheGlobalWindowAmongChats(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, two *Service) {
		l := PaceLimits{Chat: PaceRate{1, 10 * time.Second}, Global: PaceRate{2, time.Second}}
		start := c.Now()
		s := time.Second
		// Chat 1's second slot is 10 s away; it takes no global slot
		// from the chats that may go before it.
		got := []time.Duration{reserved(t, one, c, start, 1, l), reserved(t, one, c, start, 1, l)}
		for chat := range int64(4) {
			got = append(got, reserved(t, one, c, start, 2+chat, l))
		}
		want := []time.Duration{0, 10 * s, 0, s, s, 2 * s}
		if !slices.Equal(got, want) {
			t.Errorf("slots %v, want %v", got, want)
		}
	})
}

func TestReserveAmongReplicasHandsOutEachSlotOnce(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, two *Service) {
		services := []*Service{one}
		if two != nil {
			services = append(services, two)
		}
		l := PaceLimits{Chat: PaceRate{1, time.Second}, Group: PaceRate{20, time.Minute}, Global: PaceRate{30, time.Second}}
		start := c.Now()
		const each = 8
		var mu sync.Mutex
		var got []time.Duration
		var wg sync.WaitGroup
		for _, s := range services {
			for range each {
				wg.Go(func() {
					at, err := s.Reserve(ctx, "telegram", -7, l)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					got = append(got, at.Sub(start))
					mu.Unlock()
				})
			}
		}
		wg.Wait()
		slices.Sort(got)
		var want []time.Duration
		for i := range each * len(services) {
			want = append(want, time.Duration(i)*time.Second)
		}
		if !slices.Equal(got, want) {
			t.Errorf("slots %v, want one a second from now: %v", got, want)
		}
	})
}

func TestReserveFailsOnlyTheChatWithAnUnreadableRecord(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, two *Service) {
		err := one.kv.Update(ctx, func(tx kv.Tx) error {
			return tx.Put(bucketPace, paceKey("telegram", 9), []byte{paceSchema + 1, 0})
		})
		if err != nil {
			t.Fatal(err)
		}
		l := PaceLimits{Chat: PaceRate{1, time.Second}, Global: PaceRate{30, time.Second}}
		if _, err := one.Reserve(ctx, "telegram", 9, l); !errors.Is(err, ErrSchema) {
			t.Errorf("reserve for the chat with an unreadable record: %v, want ErrSchema", err)
		}
		if _, err := one.Reserve(ctx, "telegram", 10, l); err != nil {
			t.Errorf("reserve for another chat: %v", err)
		}
	})
}

func TestForgetPacesDropsRecordsThatNoLongerCount(t *testing.T) {
	onEveryStore(t, func(t *testing.T, c *clock, one, two *Service) {
		l := PaceLimits{Chat: PaceRate{1, time.Second}, Group: PaceRate{20, time.Minute}, Global: PaceRate{30, time.Second}}
		for chat := range int64(3) {
			if _, err := one.Reserve(ctx, "telegram", -chat-1, l); err != nil {
				t.Fatal(err)
			}
		}
		if two == nil {
			// A store no other process shares: not even a read.
			counted := kv.Count(one.kv)
			s := New(counted, &Config{Now: c.Now})
			c.Advance(time.Hour)
			if n, err := s.ForgetPaces(ctx); n != 0 || err != nil || counted.Transactions() != 0 {
				t.Errorf("ForgetPaces on bbolt: %d, %v, %d transactions; want nothing done", n, err, counted.Transactions())
			}
			return
		}
		count := func() int {
			n := 0
			err := one.kv.View(ctx, func(tx kv.Tx) error {
				return tx.Scan(bucketPace, nil, nil, func(_, _ []byte) bool { n++; return true })
			})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		// The global record's slots stop counting after a second, the
		// groups' after a minute.
		c.Advance(2 * time.Second)
		if n, err := two.ForgetPaces(ctx); n != 1 || err != nil || count() != 3 {
			t.Errorf("after 2s: forgot %d (%v), %d left; want the global record forgotten, the 3 groups' kept", n, err, count())
		}
		c.Advance(time.Minute)
		if n, err := two.ForgetPaces(ctx); n != 3 || err != nil || count() != 0 {
			t.Errorf("after a minute: forgot %d (%v), %d left; want all", n, err, count())
		}
	})
}

// TestEarliestSlotIsTheEarliestThatFits reserves slots at random for
// chats of random limits and checks each against a search of every
// nanosecond-exact instant: the slot fits, no earlier one does, and no
// window ever holds more than its N.
func TestEarliestSlotIsTheEarliestThatFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		chats := map[int64]*paceEntry{}
		global := &paceEntry{}
		gn, gspan := 1+rng.IntN(4), int64(1+rng.IntN(10))
		type kept struct {
			chat int64
			at   int64
		}
		var all []kept
		now := int64(0)
		for range 30 {
			now += int64(rng.IntN(3))
			chat := int64(rng.IntN(3))
			e := chats[chat]
			if e == nil {
				e = &paceEntry{}
				chats[chat] = e
			}
			ws := []paceWindow{{e, 1 + rng.IntN(2), int64(1 + rng.IntN(6))}, {global, gn, gspan}}
			at := earliestSlot(now, ws)
			fitsAll := func(t int64) bool {
				for _, w := range ws {
					if !fitsWindow(w.e.rec.times, w.n, w.span, t) {
						return false
					}
				}
				return true
			}
			if at < now || !fitsAll(at) {
				t.Fatalf("round %d: slot %d at now %d does not fit %v", round, at, now, ws)
			}
			for earlier := now; earlier < at; earlier++ {
				if fitsAll(earlier) {
					t.Fatalf("round %d: slot %d, but %d fits already", round, at, earlier)
				}
			}
			e.rec.times = insertTime(e.rec.times, at)
			global.rec.times = insertTime(global.rec.times, at)
			all = append(all, kept{chat, at})
			// Every span of the global window holds at most gn slots.
			for _, a := range all {
				in := 0
				for _, b := range all {
					if b.at >= a.at && b.at < a.at+gspan {
						in++
					}
				}
				if in > gn {
					t.Fatalf("round %d: %d slots in [%d, %d), limit %d: %v", round, in, a.at, a.at+gspan, gn, all)
				}
			}
		}
	}
}

func TestPaceRecordRoundTrips(t *testing.T) {
	r := paceRecord{until: 1e18 + 5, times: []int64{1e18, 1e18, 1e18 + 7, 1e18 + 3e9}}
	got, err := decodePace(encodePace(r))
	if err != nil || got.until != r.until || !slices.Equal(got.times, r.times) {
		t.Fatalf("decode(encode(%v)) = %v, %v", r, got, err)
	}
	if n := len(encodePace(r)); n > 32 {
		t.Errorf("a record of %d times takes %d bytes", len(r.times), n)
	}
	for _, bad := range [][]byte{{}, {paceSchema + 1}, {paceSchema}, {paceSchema, 0x80}, {paceSchema, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}} {
		if _, err := decodePace(bad); !errors.Is(err, ErrSchema) {
			t.Errorf("decode(%x): %v, want ErrSchema", bad, err)
		}
	}
}
