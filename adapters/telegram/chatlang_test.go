package telegram_test

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/render"
)

// TestChatLangByAdminsOfAGroup checks /chatlang through the Bot API: in a
// group the bot asks getChatMember, refuses a member, and takes it from
// an administrator; the chat's language then answers a user with no /lang
// whose app is in English; in a private chat the user may set it.
func TestChatLangByAdminsOfAGroup(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-3300)
	boss, member, quiet := user(3301, "en"), user(3302, "en"), user(3303, "en")
	h.fake.SetMember(chat.ID, boss.ID, "administrator")

	h.say(chat, member, "/chatlang zh")
	if got := h.lastBot(chat).Text; got != render.T(render.English, render.MsgChatLangAdmin) {
		t.Fatalf("/chatlang by a member: %q", got)
	}
	asked := h.fake.Calls("getChatMember")
	if len(asked) != 1 || asked[0].Params["chat_id"] != itoa64(chat.ID) || asked[0].Params["user_id"] != itoa64(member.ID) {
		t.Fatalf("getChatMember calls %+v", asked)
	}
	h.say(chat, quiet, "/help")
	if got := h.lastBot(chat).Text; !strings.HasPrefix(got, "/play") {
		t.Fatalf("help after a refused /chatlang: %q", got)
	}

	h.say(chat, boss, "/chatlang zh")
	if got := h.lastBot(chat).Text; got != render.T(render.Chinese, render.MsgChatLangSet, "中文") {
		t.Fatalf("/chatlang by an admin: %q", got)
	}
	h.say(chat, quiet, "/help")
	if got := h.lastBot(chat).Text; !strings.Contains(got, render.T(render.Chinese, render.MsgHelpChatLang)) {
		t.Fatalf("help in the chat's language:\n%s", got)
	}
	// Other commands never ask who is an administrator.
	if n := len(h.fake.Calls("getChatMember")); n != 2 {
		t.Fatalf("%d getChatMember calls", n)
	}

	dm := private(3301)
	h.say(dm, boss, "/chatlang auto")
	if got := h.lastBot(dm).Text; got != render.T(render.English, render.MsgChatLangAuto) {
		t.Fatalf("/chatlang auto in a private chat: %q", got)
	}
	if n := len(h.fake.Calls("getChatMember")); n != 2 {
		t.Fatalf("a private chat asked getChatMember: %d calls", n)
	}
}

// TestInlineTapAnswersInTheUsersLanguage checks that a bad tap on a button
// of an inline message is refused in the language the user chose with
// /lang, not their app's.
func TestInlineTapAnswersInTheUsersLanguage(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(3400), user(3400, "en")
	h.say(chat, me, "/lang zh")
	u, id := h.fake.NewTapUpdate(chat, me, 1, "p:x")
	u.CallbackQuery.Message, u.CallbackQuery.InlineMessageID = nil, "inline-1"
	h.fake.PushUpdate(u)
	h.wait("the answer", func() bool { return h.fake.Answered(id) })
	if a := h.fake.Answers(id); len(a) != 1 || a[0].Params["text"] != render.T(render.Chinese, render.MsgBadCallback) {
		t.Fatalf("answers %+v", a)
	}
}
