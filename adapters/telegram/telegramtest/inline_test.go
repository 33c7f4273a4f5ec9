package telegramtest

import (
	"strconv"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// article returns an inline result with a one-button keyboard.
func article(id string) tgbotapi.InlineQueryResultArticle {
	r := tgbotapi.NewInlineQueryResultArticle(id, "title "+id, "text "+id)
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData("go", "go-"+id)))
	r.ReplyMarkup = &kb
	return r
}

// answer answers inline query id with results through the client library.
func answer(bot *tgbotapi.BotAPI, id string, results ...any) error {
	_, err := bot.Request(tgbotapi.InlineConfig{InlineQueryID: id, Results: results, CacheTime: 5, IsPersonal: true})
	return err
}

// TestInlineAnswersKeepTelegramsRules answers inline queries as Telegram
// checks them: at most 50 results with unique ids of at most 64 bytes,
// one answer per query, none after its window; a posted result becomes
// an inline message whose taps carry its id and which edits change.
func TestInlineAnswersKeepTelegramsRules(t *testing.T) {
	s := NewServer()
	defer s.Close()
	bot := newBot(t, s)
	from := tgbotapi.User{ID: 42, FirstName: "Ann"}

	q := s.InlineQuery(from, "x")
	many := make([]any, MaxInlineResults+1)
	for i := range many {
		many[i] = article(strconv.Itoa(i))
	}
	if err := answer(bot, q, many...); err == nil {
		t.Error("51 results taken")
	}
	if err := answer(bot, q, article("a"), article("a")); err == nil {
		t.Error("two results with one id taken")
	}
	if err := answer(bot, q, article(strings.Repeat("i", MaxResultID+1))); err == nil {
		t.Error("a 65-byte id taken")
	}
	if err := answer(bot, q, article("a"), article("b")); err != nil {
		t.Fatal(err)
	}
	if err := answer(bot, q, article("c")); err == nil {
		t.Error("a second answer taken")
	}
	a, ok := s.InlineAnswer(q)
	if !ok || len(a.Results) != 2 || !a.IsPersonal || a.CacheTime != 5 || a.Results[1].Text != "text b" {
		t.Fatalf("answer %+v", a)
	}
	late := s.InlineQuery(from, "y")
	s.ExpireInlineQuery(late)
	if err := answer(bot, late, article("a")); err == nil {
		t.Error("an answer after the window taken")
	}

	id, err := s.Choose(q, "b", true)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := s.InlineMessage(id)
	if m.Text != "text b" || len(m.Buttons()) != 1 {
		t.Fatalf("posted %+v", m)
	}
	up, _ := s.NewInlineTapUpdate(from, id, "go-b")
	if cq := up.CallbackQuery; cq.Message != nil || cq.InlineMessageID != id {
		t.Fatalf("inline tap %+v", cq)
	}
	edit := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: id}, Text: "edited"}
	if _, err := bot.Request(edit); err != nil {
		t.Fatal(err)
	}
	if _, err := bot.Request(edit); err == nil || !strings.Contains(err.Error(), "not modified") {
		t.Errorf("an unchanged inline edit: %v", err)
	}
	if m, _ := s.InlineMessage(id); m.Text != "edited" || m.Edits != 1 || m.Markup != nil {
		t.Fatalf("edited %+v", m)
	}
	updates, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var chosen *tgbotapi.ChosenInlineResult
	for _, u := range updates {
		if u.ChosenInlineResult != nil {
			chosen = u.ChosenInlineResult
		}
	}
	if chosen == nil || chosen.ResultID != "b" || chosen.InlineMessageID != id || chosen.From.ID != 42 {
		t.Fatalf("chosen result %+v", chosen)
	}
}
