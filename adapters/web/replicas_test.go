package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
)

// TestWebReplicasShowEachOthersMoves runs two web servers, as two
// replicas, on one embedded etcd cluster: a page following the game on
// replica A sees the move made through replica B.
func TestWebReplicasShowEachOthersMoves(t *testing.T) {
	c := etcdtest.Start(t, 1)
	signer, _ := NewSigner([]byte("the replicas' shared web secret"))
	var servers [2]*httptest.Server
	var svcs [2]*session.Service
	for i := range servers {
		svcs[i] = session.New(c.Store(t, "web/"), &session.Config{NewSeed: func() uint64 { return uint64(i + 1) }, ThinkTime: 10 * time.Millisecond})
		d := adapters.NewDispatcher(svcs[i], "telegram", "bot", nil)
		s, err := NewServer(Config{Service: svcs[i], Dispatchers: map[session.Platform]*adapters.Dispatcher{"telegram": d}, Fronts: adapters.Fronts{"telegram": &chatFront{}}, Signer: signer})
		if err != nil {
			t.Fatal(err)
		}
		servers[i] = httptest.NewServer(s)
		t.Cleanup(servers[i].Close)
	}
	// The game starts in the chat, through replica A's service.
	d := adapters.NewDispatcher(svcs[0], "telegram", "bot", nil)
	chat := &chatFront{}
	dec := d.Text(context.Background(), adapters.Request{Chat: "950", User: session.User{ID: "95", Name: "U95"}, Locale: "en"}, "/play 7x7 k4 easy")
	if err := d.Bind(context.Background(), adapters.Carry(context.Background(), chat, dec, nil)); err != nil {
		t.Fatal(err)
	}
	var game session.GameID
	for _, e := range dec.Effects {
		if s, ok := e.(adapters.Show); ok {
			game = s.Game.ID()
		}
	}
	tok := signer.Sign(Grant{Platform: "telegram", User: "95", Game: game, Expires: time.Now().Add(time.Hour).Unix()})
	// A stream whose awaited event never comes ends, and the test fails.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", servers[0].URL+"/api/events?t="+url.QueryEscape(tok), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("events on A: %v %v", res, err)
	}
	defer res.Body.Close()
	events := readEvents(res.Body)
	if first := <-events; len(first.State.Moves) != 0 {
		t.Fatalf("first event on A: %+v", first.State)
	}
	b := &webHarness{t: t, srv: servers[1]}
	if ans := b.act(tok, actRequest{Kind: "place", X: 3, Y: 3, Nonce: "move-through-replica-b"}); len(ans.State.Moves) != 2 {
		t.Fatalf("the move through B: %+v", ans)
	}
	for e := range events {
		if len(e.State.Moves) == 2 {
			return
		}
	}
	t.Fatal("A's stream ended before B's move showed")
}
