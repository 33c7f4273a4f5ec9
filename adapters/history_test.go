package adapters

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// finishGame starts a game against the AI for r and resigns it.
func finishGame(t *testing.T, d *Dispatcher, r Request, play string) session.View {
	t.Helper()
	g := read(d.Text(ctx, r, play))
	if g.Game == nil {
		t.Fatalf("%s: %+v", play, g)
	}
	if err := bind(d, g.Game.ID(), "m-"+string(g.Game.ID())); err != nil {
		t.Fatal(err)
	}
	r.Message = "m-" + string(g.Game.ID())
	got := tapAction(t, d, r, *g.Game, render.Resign)
	if got.Game == nil || !got.Game.Status().Over() {
		t.Fatalf("resign: %+v", got)
	}
	return *got.Game
}

func TestHistoryListsAndReplays(t *testing.T) {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	d, _ := newDispatcher(t, c)
	alice := req("alice")
	if r := read(d.Text(ctx, alice, "/history")); r.Text != render.T(render.English, render.MsgHistoryEmpty) || r.Buttons != nil {
		t.Fatalf("/history before any game: %+v", r)
	}
	var games []session.View
	for range 12 {
		c.Advance(time.Minute)
		games = append(games, finishGame(t, d, alice, "/play easy second"))
	}
	// A game in another chat shows only across chats.
	other := alice
	other.Chat = "c2"
	c.Advance(time.Minute)
	elsewhere := finishGame(t, d, other, "/play easy gomoku second")

	r := read(d.Text(ctx, alice, "/history"))
	lines := strings.Split(r.Text, "\n")
	if len(lines) != 1+session.HistoryLen || r.Buttons == nil || r.Buttons.Buttons() != 2*session.HistoryLen {
		t.Fatalf("/history: %q with %+v", r.Text, r.Buttons)
	}
	if want := "1. vs AI (easy) · Tic-tac-toe · lost · moves: "; !strings.HasPrefix(lines[1], want) || strings.Contains(r.Text, "Gomoku") {
		t.Errorf("/history in the chat: %q", r.Text)
	}
	if a := r.Buttons.Rows[0][0].Action; a.Kind != render.ReplayGame || a.Game != games[11].ID() {
		t.Errorf("first button %+v, want the replay of %s", a, games[11].ID())
	}
	private := alice
	private.Chat, private.Private = "dm", true
	r = read(d.Text(ctx, private, "/history"))
	if lines := strings.Split(r.Text, "\n"); len(lines) != 1+session.HistoryLen || !strings.Contains(lines[1], "Gomoku") {
		t.Fatalf("/history in a private chat: %q", r.Text)
	}

	// ▶️ from the private chat sends the replay of a game of another
	// chat; a doubled tap sends it once, and again after SendGap.
	data := EncodeAction(r.Buttons.Rows[0][0].Action)
	private.Message, private.HasButton = "list", true
	if got := read(d.Tap(ctx, private, data)); got.Replay == nil || got.Replay.ID() != elsewhere.ID() {
		t.Fatalf("▶️: %+v", got)
	}
	if got := read(d.Tap(ctx, private, data)); got.Replay != nil || got.Notice != render.T(render.English, render.MsgSentRecently) {
		t.Fatalf("doubled ▶️: %+v; want no replay and a notice saying it went", got)
	}
	c.Advance(session.SendGap)
	if got := read(d.Tap(ctx, private, data)); got.Replay == nil {
		t.Fatalf("▶️ later: %+v", got)
	}
	// A redelivered update sends nothing more.
	redelivered := private
	redelivered.Update = "u1"
	c.Advance(session.SendGap)
	if got := read(d.Tap(ctx, redelivered, EncodeAction(render.Action{Kind: render.ExportGame, Game: games[0].ID()}))); !strings.Contains(got.Record, "Moves (") {
		t.Fatalf("📋: %+v", got)
	}
	c.Advance(session.SendGap)
	if got := read(d.Tap(ctx, redelivered, EncodeAction(render.Action{Kind: render.ExportGame, Game: games[0].ID()}))); got.Record != "" {
		t.Fatalf("📋 redelivered: %+v", got)
	}
	// Someone else elsewhere cannot replay alice's game.
	mallory := req("mallory")
	mallory.Chat = "c3"
	if got := read(d.Tap(ctx, mallory, data)); got.Replay != nil || got.Notice == "" {
		t.Fatalf("a stranger's ▶️: %+v", got)
	}
	// The finished board's own ▶️ and /export.
	if got := tapAction(t, d, alice, games[3], render.ReplayGame); got.Replay == nil || got.Replay.ID() != games[3].ID() {
		t.Fatalf("▶️ under the board: %+v", got)
	}
	if got := read(d.Text(ctx, alice, "/export")); got.Record != render.Export(games[11], render.English) {
		t.Fatalf("/export: %+v", got)
	}
}

func TestStatsChart(t *testing.T) {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	d, _ := newDispatcher(t, c)
	alice := req("alice")
	finishGame(t, d, alice, "/play easy second")
	r := read(d.Text(ctx, alice, "/stats"))
	if r.Chart == nil || !bytes.HasPrefix(r.Chart.Data, []byte("\x89PNG")) || !strings.Contains(r.Chart.Caption, "No rated duel yet") || !strings.Contains(r.Text, "easy") {
		t.Fatalf("/stats: %+v", r)
	}
	if r.Chart.Name != "chart-id-alice.png" {
		t.Errorf("/stats sends the chart as %q, want chart-id-alice.png", r.Chart.Name)
	}
	data := EncodeAction(r.Chart.Buttons.Rows[0][0].Action)
	bob := req("bob")
	finishGame(t, d, bob, "/play hard second")
	if got := read(d.Tap(ctx, bob, data)); got.Chart == nil || got.Chart.Name != "chart-id-bob.png" {
		t.Fatalf("bob's 📈: %+v", got)
	}
	if got := read(d.Tap(ctx, bob, data)); got.Chart != nil {
		t.Fatalf("a doubled 📈 sent a chart again")
	}
}

// TestStatsChartLeavesOutWhatHasNoData checks the charts of players with
// little to draw: games against the AI alone draw no rating panel, and
// no game at all no chart, from /stats or 📈.
func TestStatsChartLeavesOutWhatHasNoData(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	alice := req("alice")
	finishGame(t, d, alice, "/play easy second")
	r := read(d.Text(ctx, alice, "/stats"))
	if r.Chart == nil {
		t.Fatalf("/stats after a game against the AI: %+v", r)
	}
	img, err := png.Decode(bytes.NewReader(r.Chart.Data))
	if err != nil {
		t.Fatal(err)
	}
	if got, panel := img.Bounds().Dy(), render.ChartSize(1, 1, 0).Y; got >= panel {
		t.Errorf("the chart of one bar and no rated duel is %d pixels high, as high as one with ratings (%d): it has a rating panel", got, panel)
	}
	bob := req("bob")
	if r := read(d.Text(ctx, bob, "/stats")); r.Chart != nil || r.Text != "bob — duel rating 1200, duels played: 0\nNo finished games yet." {
		t.Errorf("/stats without a game: %q with a chart %v", r.Text, r.Chart != nil)
	}
	got := read(d.Tap(ctx, bob, EncodeAction(render.Action{Kind: render.StatsChart})))
	if got.Chart != nil || !strings.Contains(got.Notice, "Nothing to draw yet") {
		t.Errorf("📈 without a game: %+v", got)
	}
}
