package telegram_test

import (
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Names are cleaned where they are shown: no escape sequence, no
// invisible player.
func TestInvisibleNamesShowAsPlayerAndTheirNumber(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-7000)
	ghost := tgbotapi.User{ID: 7001, FirstName: "\u200b\u3164", LastName: "\u2800", LanguageCode: "en"}
	ansi := tgbotapi.User{ID: 7002, FirstName: "\x1b[31mEvil\u202e", LanguageCode: "en"}

	b := h.startGame(chat, ghost, "/play easy")
	if !strings.Contains(b.Text, "Player 7001") {
		t.Fatalf("a name with nothing visible should show as Player 7001:\n%s", b.Text)
	}
	ch := h.startGame(chat, ansi, "/duel")
	if strings.ContainsAny(ch.Text, "\x1b\u202e") || !strings.Contains(ch.Text, "[31mEvil") {
		t.Fatalf("the challenge shows the name uncleaned:\n%+q", ch.Text)
	}
	if v := h.gameOf(ch); strings.ContainsAny(v.Seat(v.Challenger()).User.Name, "\x1b\u202e") {
		t.Fatalf("the stored name is uncleaned: %+q", v.Seat(v.Challenger()).User.Name)
	}
}
