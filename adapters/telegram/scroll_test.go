package telegram_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// checkPictureBoard fails unless the photo message m shows v with the
// keyboard's window at window (nil: around the last move): the picture
// of the whole board, its text but the emoji board as its caption, and the
// window's cells and arrows as its buttons, the window's coordinates in
// the caption.
func checkPictureBoard(t testing.TB, m telegramtest.Message, v session.View, window *engine.Point) {
	t.Helper()
	text, kb := render.Message(v, render.English, render.TelegramLayout, window)
	png, err := render.Picture(v)
	if err != nil {
		t.Fatal(err)
	}
	// The caption is the text without the emoji board.
	caption := strings.Replace(text, "\n\n"+render.Grid(v)+"\n", "\n", 1)
	if !kb.Partial || !strings.Contains(caption, render.Status(v, render.English)) {
		t.Fatalf("caption %q of a keyboard showing the whole board", caption)
	}
	if m.Caption != caption || m.Text != "" {
		t.Fatalf("caption %q, want %q", m.Caption, caption)
	}
	if !bytes.Equal(m.Photo, png) {
		t.Fatal("the photo is not the picture of the game")
	}
	rows := m.Buttons()
	if !kb.Partial || len(rows) != len(kb.Rows) {
		t.Fatalf("%d keyboard rows, want %d (partial %v)", len(rows), len(kb.Rows), kb.Partial)
	}
	for r, row := range kb.Rows {
		if len(rows[r]) != len(row) {
			t.Fatalf("row %d has %d buttons, want %d", r, len(rows[r]), len(row))
		}
		for c, want := range row {
			got := rows[r][c]
			label := want.Label
			if strings.TrimSpace(label) == "" {
				label = "·"
			}
			if got.Text != label || *got.CallbackData != adapters.EncodeAction(want.Action) {
				t.Fatalf("button %d,%d is %q → %q, want %q → %q", r, c, got.Text, *got.CallbackData, label, adapters.EncodeAction(want.Action))
			}
		}
	}
}

// scrollButtons returns the callback data of the message's live arrows.
func scrollButtons(m telegramtest.Message) []string {
	var out []string
	for _, row := range m.Buttons() {
		for _, b := range row {
			if strings.HasPrefix(*b.CallbackData, "s:") {
				out = append(out, *b.CallbackData)
			}
		}
	}
	return out
}

// scrollTarget returns the window origin an arrow's data moves to.
func scrollTarget(t testing.TB, data string) engine.Point {
	t.Helper()
	f := strings.Split(data, ":")
	x, err1 := strconv.Atoi(f[2])
	y, err2 := strconv.Atoi(f[3])
	if len(f) != 4 || err1 != nil || err2 != nil {
		t.Fatalf("arrow data %q", data)
	}
	return engine.Point{X: x, Y: y}
}

// playPictureByTaps plays the 15×15 game on photo message msg to its end
// by taps alone: live cells of the window shown, and arrows that move the
// window, checking every edit: a tapped cell's window stays while it holds
// the last move. It returns the final game, how many arrows were tapped
// and how many moves kept the window.
func (h *harness) playPictureByTaps(chat tgbotapi.Chat, from tgbotapi.User, msg int, rng *rand.Rand) (session.View, int, int) {
	h.t.Helper()
	m, _ := h.fake.Message(chat.ID, msg)
	v := h.gameOf(m)
	scrolls, kept := 0, 0
	for step := 0; v.Status() == session.Running; step++ {
		if step > 1000 {
			h.t.Fatal("the game did not end in 1000 taps")
		}
		m, _ = h.fake.Message(chat.ID, msg)
		live, arrows := placeButtons(m), scrollButtons(m)
		var data string
		var window, tappedIn *engine.Point
		scroll := len(arrows) > 0 && (len(live) == 0 || rng.IntN(3) == 0)
		if scroll {
			data = arrows[rng.IntN(len(arrows))]
			to := scrollTarget(h.t, data)
			window = &to
			scrolls++
		} else {
			data = live[rng.IntN(len(live))]
			a, err := adapters.DecodeAction(data)
			if err != nil {
				h.t.Fatal(err)
			}
			tappedIn = &a.Window
		}
		if got := h.tap(chat, from, msg, data); got != "" {
			h.t.Fatalf("tap %q refused: %q", data, got)
		}
		after, _ := h.fake.Message(chat.ID, msg)
		if after.Edits != m.Edits+1 {
			h.t.Fatalf("tap %q made %d edits", data, after.Edits-m.Edits)
		}
		moves := len(v.Moves())
		v = h.gameOf(after)
		if scroll && len(v.Moves()) != moves || !scroll && len(v.Moves()) <= moves {
			h.t.Fatalf("tap %q: %d moves → %d", data, moves, len(v.Moves()))
		}
		if tappedIn != nil {
			if window = render.Follow(v, render.TelegramLayout, *tappedIn); window != nil && *window == *tappedIn {
				kept++
			}
		}
		checkPictureBoard(h.t, after, v, window)
	}
	return v, scrolls, kept
}

func TestWholeGomokuGamesByTapsWithWindowMoves(t *testing.T) {
	h := newHarness(t, nil)
	for i, level := range engine.Levels {
		t.Run(level.String(), func(t *testing.T) {
			h.t = t
			chat, me := private(int64(2200+i)), named(int64(2200+i), "gina", "en")
			m := h.startGame(chat, me, "/play gomoku "+level.String())
			v := h.gameOf(m)
			checkPictureBoard(t, m, v, nil)
			before := len(h.fake.Calls("editMessageMedia"))
			v, scrolls, kept := h.playPictureByTaps(chat, me, m.ID, rand.New(rand.NewPCG(uint64(i), 1515)))
			if kept == 0 {
				t.Errorf("no move kept the window it was made in")
			}
			final, _ := h.fake.Message(chat.ID, m.ID)
			if !strings.Contains(final.Caption, "Winner") && !strings.Contains(final.Caption, "Draw") {
				t.Fatalf("final caption %q", final.Caption)
			}
			if scrolls == 0 || len(h.fake.Calls("editMessageMedia")) != before+final.Edits {
				t.Fatalf("%d arrows tapped; %d media edits for %d edits", scrolls, len(h.fake.Calls("editMessageMedia"))-before, final.Edits)
			}
			if n := len(h.fake.BotMessages(chat.ID)); n != 1 || v.Message() != itoa(m.ID) {
				t.Fatalf("the game took %d messages", n)
			}
		})
	}
}
