package adapters

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/render"
)

// TestChatLangForAdminsOnly checks /chatlang: an administrator sets the
// chat's language, which then answers everyone without a /lang of their
// own; anyone else is refused and nothing changes; "auto" leaves the chat
// without a language again.
func TestChatLangForAdminsOnly(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	yes := func(context.Context) (bool, error) { return true, nil }
	no := func(context.Context) (bool, error) { return false, nil }
	admin, member, nobody := req("ann"), req("bob"), req("cy")
	admin.Admin, member.Admin = yes, no
	help := func(r Request) string { return read(d.Text(ctx, r, "/help")).Text }
	enHelp := help(nobody)

	for _, r := range []Request{member, nobody} {
		if got := read(d.Text(ctx, r, "/chatlang zh")).Text; got != render.T(render.English, render.MsgChatLangAdmin) {
			t.Errorf("/chatlang zh by %s: %q", r.User.Name, got)
		}
	}
	if help(nobody) != enHelp {
		t.Fatal("a refused /chatlang changed the chat's language")
	}
	if got := read(d.Text(ctx, admin, "/chatlang xx")).Text; got != render.T(render.English, render.MsgBadChatLang) {
		t.Errorf("/chatlang xx: %q", got)
	}
	if got := read(d.Text(ctx, admin, "/chatlang ZH")).Text; got != render.T(render.Chinese, render.MsgChatLangSet, "中文") {
		t.Errorf("/chatlang zh: %q", got)
	}
	// cy has set no language: the chat's is used, over the client's.
	if got := help(nobody); got == enHelp || got != help(Request{Chat: "c", User: nobody.User, Locale: "en-US"}) || d.Lang(ctx, nobody) != render.Chinese {
		t.Errorf("help after /chatlang zh:\n%s", got)
	}
	// A user's own /lang wins over the chat's.
	read(d.Text(ctx, member, "/lang en"))
	if d.Lang(ctx, member) != render.English {
		t.Error("/lang en lost to the chat's language")
	}
	if got := read(d.Text(ctx, admin, "/chatlang auto")).Text; got != render.T(render.English, render.MsgChatLangAuto) {
		t.Errorf("/chatlang auto: %q", got)
	}
	if d.Lang(ctx, nobody) != render.English {
		t.Error("/chatlang auto kept the chat's language")
	}
	// The platform cannot tell: refused, nothing changes.
	broken := admin
	broken.Admin = func(context.Context) (bool, error) { return false, errors.New("platform down") }
	if got := read(d.Text(ctx, broken, "/chatlang zh")).Text; got != render.T(render.English, render.MsgInternal) || d.Lang(ctx, nobody) != render.English {
		t.Errorf("/chatlang with the platform down: %q", got)
	}
	if got := help(nobody); !strings.Contains(got, "/chatlang en|zh|auto") {
		t.Errorf("/help does not name /chatlang:\n%s", got)
	}
}
