package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func newBot(t *testing.T, s *Server) *tgbotapi.BotAPI {
	t.Helper()
	bot, err := tgbotapi.NewBotAPIWithAPIEndpoint(Token, s.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	if bot.Self.UserName != s.Bot.UserName {
		t.Fatalf("getMe: %+v", bot.Self)
	}
	return bot
}

func TestMessagesKeepStateAndRefuseUnchangedEdits(t *testing.T) {
	s := NewServer()
	defer s.Close()
	bot := newBot(t, s)
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData("a", "data-a")))
	m := tgbotapi.NewMessage(5, "hello")
	m.ReplyMarkup = kb
	sent, err := bot.Send(m)
	if err != nil {
		t.Fatal(err)
	}
	edit := tgbotapi.NewEditMessageTextAndMarkup(5, sent.MessageID, "hello", kb)
	_, err = bot.Request(edit)
	var te *tgbotapi.Error
	if !errors.As(err, &te) || te.Code != 400 || te.Message != NotModifiedDescription {
		t.Fatalf("unchanged edit: %v", err)
	}
	edit.Text = "bye"
	if _, err := bot.Request(edit); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Message(5, sent.MessageID)
	if !ok || got.Text != "bye" || got.Edits != 1 || *got.Buttons()[0][0].CallbackData != "data-a" {
		t.Fatalf("message state %+v", got)
	}
	// Telegram's keyboard limits.
	var wide []tgbotapi.InlineKeyboardButton
	for range 9 {
		wide = append(wide, tgbotapi.NewInlineKeyboardButtonData("x", "x"))
	}
	m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(wide)
	if _, err := bot.Send(m); err == nil {
		t.Fatal("9 buttons in a row were accepted")
	}
	// Link buttons: http, https and tg links, and nothing else.
	for link, ok := range map[string]bool{"https://example.com/g": true, "http://127.0.0.1:8080/#t=x": true, "javascript:alert(1)": false, "https://": false} {
		m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonURL("🌐", link)))
		if _, err := bot.Send(m); (err == nil) != ok {
			t.Errorf("a link button to %q: %v", link, err)
		}
	}
	// Mini App buttons: HTTPS, in private chats only. The client library
	// lacks them, so the markup is written by hand.
	for _, tt := range []struct {
		chat int64
		url  string
		ok   bool
	}{{5, "https://board.example/?game=g1", true}, {5, "http://board.example/", false}, {-5, "https://board.example/", false}} {
		m := tgbotapi.NewMessage(tt.chat, "board")
		m.ReplyMarkup = json.RawMessage(`{"inline_keyboard":[[{"text":"🌐","web_app":{"url":"` + tt.url + `"}}]]}`)
		sent, err := bot.Send(m)
		if (err == nil) != tt.ok {
			t.Errorf("a web_app button to %q in chat %d: %v", tt.url, tt.chat, err)
			continue
		}
		if got, _ := s.Message(tt.chat, sent.MessageID); tt.ok && got.WebApp("🌐") != tt.url {
			t.Errorf("web_app button kept as %v", got.WebApps)
		}
	}
	m.ReplyMarkup = json.RawMessage(`{"inline_keyboard":[[{"text":"both","url":"https://a.example/","callback_data":"x"}]]}`)
	if _, err := bot.Send(m); err == nil {
		t.Error("a button with two kinds was accepted")
	}
}

func TestFaultsAndPhotos(t *testing.T) {
	s := NewServer()
	defer s.Close()
	bot := newBot(t, s)
	s.Fail("sendChatAction", TooManyRequests(9), ServerError())
	_, err := bot.Request(tgbotapi.NewChatAction(1, tgbotapi.ChatTyping))
	var te *tgbotapi.Error
	if !errors.As(err, &te) || te.Code != 429 || te.RetryAfter != 9 {
		t.Fatalf("429: %v", err)
	}
	if _, err = bot.Request(tgbotapi.NewChatAction(1, tgbotapi.ChatTyping)); !errors.As(err, &te) || te.Code != 500 {
		t.Fatalf("500: %v", err)
	}
	if _, err = bot.Request(tgbotapi.NewChatAction(1, tgbotapi.ChatTyping)); err != nil {
		t.Fatalf("after the faults: %v", err)
	}
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2, 2)))
	photo := tgbotapi.NewPhoto(1, tgbotapi.FileBytes{Name: "a.png", Bytes: buf.Bytes()})
	photo.Caption = "board"
	sent, err := bot.Send(photo)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Message(1, sent.MessageID); !bytes.Equal(m.Photo, buf.Bytes()) || m.Caption != "board" {
		t.Fatalf("photo message %+v", m)
	}
	if _, err := bot.Send(tgbotapi.NewPhoto(1, tgbotapi.FileBytes{Name: "a.png", Bytes: []byte("not a png")})); err == nil {
		t.Fatal("a broken picture was accepted")
	}
	if n := len(s.Calls("sendChatAction")); n != 3 {
		t.Fatalf("%d sendChatAction calls recorded", n)
	}
}

func TestLongPollEndsWhenTheServerCloses(t *testing.T) {
	s := NewServer()
	bot := newBot(t, s)
	done := make(chan error, 1)
	go func() {
		_, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 600})
		done <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Wait(ctx, func() bool { return s.Polling() == 1 }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the long poll outlived the server")
	}
}

func TestLongPollDeliversQueuedUpdatesAndConfirms(t *testing.T) {
	s := NewServer()
	defer s.Close()
	bot := newBot(t, s)
	chat, from := tgbotapi.Chat{ID: 3, Type: "private"}, tgbotapi.User{ID: 3, FirstName: "A"}
	first := s.SendText(chat, from, "/play")
	s.Tap(chat, from, 99, "n")
	us, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 1})
	if err != nil || len(us) != 2 || us[0].UpdateID != first || us[0].Message.Text != "/play" || us[1].CallbackQuery.Data != "n" {
		t.Fatalf("updates %+v, %v", us, err)
	}
	if _, err := bot.GetUpdates(tgbotapi.UpdateConfig{Offset: first + 1, Limit: 1}); err != nil {
		t.Fatal(err)
	}
	if s.Pending() != 1 || s.Offset() != first+1 {
		t.Fatalf("pending %d, offset %d", s.Pending(), s.Offset())
	}
}

func TestEnforceRefusesMessagesBeyondTheLimits(t *testing.T) {
	s := NewServer()
	defer s.Close()
	bot := newBot(t, s)
	send := func(chat int64) error {
		_, err := bot.Send(tgbotapi.NewMessage(chat, "hi"))
		return err
	}
	flooded := func(err error) bool {
		var te *tgbotapi.Error
		return errors.As(err, &te) && te.Code == 429 && te.RetryAfter > 0
	}
	// Windows of an hour: nothing leaves them during the test.
	s.Enforce(Limits{Chat: Rate{1, time.Hour}, Group: Rate{2, time.Hour}, Global: Rate{4, time.Hour}})
	if err := send(5); err != nil {
		t.Fatal(err)
	}
	if err := send(5); !flooded(err) {
		t.Fatalf("second message in a chat: %v", err)
	}
	// Chat actions and callback answers do not count.
	for range 5 {
		if _, err := bot.Request(tgbotapi.NewChatAction(6, tgbotapi.ChatTyping)); err != nil {
			t.Fatal(err)
		}
	}
	if err := send(-100); err != nil {
		t.Fatal(err)
	}
	// The group's second message is refused by the chat limit.
	if err := send(-100); !flooded(err) {
		t.Fatalf("second message in a group: %v", err)
	}
	if err := send(-200); err != nil {
		t.Fatal(err)
	}
	if err := send(7); err != nil {
		t.Fatal(err)
	}
	// Four counted: the global limit refuses a fifth chat.
	if err := send(8); !flooded(err) {
		t.Fatalf("fifth message overall: %v", err)
	}
	s.Enforce(Limits{Chat: Rate{5, time.Hour}, Group: Rate{2, time.Hour}, Global: Rate{100, time.Hour}})
	for i := range 3 {
		err := send(-300)
		if (i < 2) != (err == nil) || (i == 2 && !flooded(err)) {
			t.Fatalf("group message %d: %v", i, err)
		}
	}
	if n := s.Flooded(); n != 4 {
		t.Fatalf("Flooded() = %d, want 4", n)
	}
	if n := len(s.Calls("sendMessage")); n != 10 {
		t.Fatalf("%d sendMessage calls recorded, want 10", n)
	}
}

func TestAnimations(t *testing.T) {
	s := NewServer()
	defer s.Close()
	bot := newBot(t, s)
	var buf bytes.Buffer
	img := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black, color.White})
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{img}, Delay: []int{10}}); err != nil {
		t.Fatal(err)
	}
	anim := tgbotapi.NewAnimation(1, tgbotapi.FileBytes{Name: "a.gif", Bytes: buf.Bytes()})
	anim.Caption = strings.Repeat("é", MaxCaption)
	sent, err := bot.Send(anim)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Message(1, sent.MessageID); !bytes.Equal(m.Animation, buf.Bytes()) || sent.Animation == nil {
		t.Fatalf("animation message %+v", m)
	}
	anim.Caption += "x"
	if _, err := bot.Send(anim); err == nil {
		t.Fatal("a caption of 1025 characters was accepted")
	}
	var png bytes.Buffer
	_ = pngEncode(&png)
	for name, data := range map[string][]byte{"a PNG": png.Bytes(), "nothing": []byte("GIF"), "over 50 MB": append(bytes.Clone(buf.Bytes()), make([]byte, MaxUpload)...)} {
		if _, err := bot.Send(tgbotapi.NewAnimation(1, tgbotapi.FileBytes{Name: "a.gif", Bytes: data})); err == nil {
			t.Errorf("%s was accepted as an animation", name)
		}
	}
	if n := len(s.Calls("sendAnimation")); n != 5 {
		t.Fatalf("%d sendAnimation calls recorded", n)
	}
}

func pngEncode(buf *bytes.Buffer) error {
	return png.Encode(buf, image.NewGray(image.Rect(0, 0, 2, 2)))
}
