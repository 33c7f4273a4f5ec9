package discord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// responder sends the first answer of an interaction: through the REST
// callback (the gateway), or as the HTTP answer (the interactions
// endpoint), which carries no files (Discord takes no multipart HTTP
// answer).
type responder struct {
	respond func(ctx context.Context, resp *discordgo.InteractionResponse) error
	// files says the first answer may carry files.
	files bool
	// http says the first answer is the HTTP answer: Discord may not know
	// the interaction's token until it has read it, so a call on the
	// token right after it is tried again while Discord says 404.
	http bool
	// deferred, when set, is the deferral that answered the interaction
	// already (another replica wrote it), ephemeral or not: there is no
	// first answer to give.
	deferred  discordgo.InteractionResponseType
	ephemeral bool
	// settle, when set, waits for what the first answer left running
	// (the keeping of a deferral) before the interaction's end is
	// recorded.
	settle func()
}

// reply is the adapters.Front of one Discord interaction: Discord wants
// exactly one first answer within three seconds, and everything after it
// goes through the interaction's token (its original message and
// follow-ups) or the channel's messages. A tap's board is its first
// answer when it can be (an update of the tapped message, type 7); a new
// board is a message of its own (type 4); what the actor alone sees is
// ephemeral. An interaction whose answer cannot be ready in time (the AI
// thinks long, or Config.DeferAfter passes) is deferred (type 6 for a
// tap, 5 for a command), and its answer then edits the original. A reply
// of no interaction (the sweeper's expiries) only edits.
type reply struct {
	b    *Bot
	i    *discordgo.Interaction
	resp responder

	mu sync.Mutex
	// answered says the first answer went; deferred is the deferral it
	// was (5 or 6), 0 when it carried content. placeholder says the
	// original is a command's public "thinking…" still.
	answered    bool
	deferred    discordgo.InteractionResponseType
	placeholder bool
	// notice waits for the first answer: a tap's board goes first.
	notice string
	// shown is the last game shown, for the status line that answers a
	// command whose only effect was an edit.
	shown *session.View
}

// Platform returns Discord's platform.
func (r *reply) Platform() session.Platform { return Platform }

// component reports whether the interaction is a tap.
func (r *reply) component() bool {
	return r.i != nil && r.i.Type == discordgo.InteractionMessageComponent
}

// first sends resp as the first answer, unless one went already; it
// reports whether it did.
func (r *reply) first(ctx context.Context, resp *discordgo.InteractionResponse) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answered || r.i == nil {
		return false, nil
	}
	if err := r.resp.respond(ctx, resp); err != nil {
		return false, err
	}
	r.answered = true
	switch resp.Type {
	case discordgo.InteractionResponseDeferredMessageUpdate:
		r.deferred = resp.Type
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		r.deferred = resp.Type
		r.placeholder = resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0
	}
	return true, nil
}

// deferNow defers the answer, unless one went: a tap's is an update of
// its message to come, a command's a public "thinking…".
func (r *reply) deferNow(ctx context.Context) {
	t := discordgo.InteractionResponseDeferredChannelMessageWithSource
	if r.component() {
		t = discordgo.InteractionResponseDeferredMessageUpdate
	}
	if _, err := r.first(ctx, &discordgo.InteractionResponse{Type: t}); err != nil {
		r.b.logErr("defer", r.i, err)
	}
}

// deferAt defers the answer when deadline fires before one went, and
// returns the function that stops waiting for it.
func (r *reply) deferAt(ctx context.Context, deadline <-chan time.Time) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-deadline:
			r.deferNow(ctx)
		case <-quit:
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// webhook runs a call on the interaction's token, trying again a few
// times while Discord has not read an HTTP first answer (404).
func (r *reply) webhook(ctx context.Context, call func() error) error {
	wait := 5 * time.Millisecond
	for try := 0; ; try++ {
		err := call()
		var re *discordgo.RESTError
		if err == nil || !r.resp.http || try == 8 || !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusNotFound {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// Notify keeps a notice for the actor until the first answer went: a
// tap's board is its first answer when it can be.
func (r *reply) Notify(_ context.Context, text string) error {
	if text != "" {
		r.mu.Lock()
		r.notice = text
		r.mu.Unlock()
	}
	return nil
}

// flushNotice shows the notice kept, if any, once the first answer went.
func (r *reply) flushNotice(ctx context.Context) {
	r.mu.Lock()
	text, answered := r.notice, r.answered
	if answered {
		r.notice = ""
	}
	r.mu.Unlock()
	if answered && text != "" {
		r.ephemeral(ctx, text)
	}
}

// Send posts m: a text (with the buttons of its question) only the actor
// sees, or a board everyone sees, with its note above.
func (r *reply) Send(ctx context.Context, _ string, m adapters.Message) (string, error) {
	if r.i == nil {
		return "", errors.New("discord: no channel to post in")
	}
	defer r.flushNotice(ctx)
	if m.Game == nil {
		var comps []discordgo.MessageComponent
		if m.Buttons != nil {
			comps, _ = components(*m.Buttons)
		}
		r.ephemeral(ctx, m.Text, comps...)
		return "", nil
	}
	r.see(*m.Game)
	p := r.b.post(*m.Game, m.Lang, m.Text, m.WindowIn(render.DiscordLayout))
	if p.picture == nil || r.resp.files {
		sent, err := r.first(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: p.responseData(false)})
		if err != nil {
			return "", r.b.logErr("post the board", r.i, err)
		}
		if sent {
			msg, err := r.original(ctx)
			if err != nil {
				return "", r.b.logErr("find the posted board", r.i, err)
			}
			return msg.ID, nil
		}
	} else {
		r.deferNow(ctx)
	}
	r.mu.Lock()
	original := r.placeholder
	r.placeholder = false
	r.mu.Unlock()
	var msg *discordgo.Message
	err := r.webhook(ctx, func() error {
		var err error
		if original {
			msg, err = r.b.s.InteractionResponseEdit(r.i, p.webhookEdit(), discordgo.WithContext(ctx))
		} else {
			msg, err = r.b.s.FollowupMessageCreate(r.i, true, p.webhookParams(), discordgo.WithContext(ctx))
		}
		return err
	})
	if err != nil {
		return "", r.b.logErr("post the board", r.i, err)
	}
	return msg.ID, nil
}

// Edit changes message at to show m's board: the tapped message in the
// first answer when it can be (type 7), else through the original of a
// deferred tap or the channel's messages. A message Discord no longer
// has is gone (adapters.ErrGone).
func (r *reply) Edit(ctx context.Context, at adapters.Place, m adapters.Message) error {
	defer r.flushNotice(ctx)
	r.see(*m.Game)
	p := r.b.post(*m.Game, m.Lang, "", m.WindowIn(render.DiscordLayout))
	if r.component() && r.i.Message != nil && at.Message == r.i.Message.ID {
		if p.picture == nil || r.resp.files {
			sent, err := r.first(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: p.responseData(true)})
			if sent || err != nil {
				return r.b.logErr("update the board", r.i, err)
			}
		} else {
			r.deferNow(ctx)
		}
		r.mu.Lock()
		deferredTap := r.deferred == discordgo.InteractionResponseDeferredMessageUpdate
		r.mu.Unlock()
		if deferredTap {
			return r.b.logErr("update the board", r.i, r.webhook(ctx, func() error {
				_, err := r.b.s.InteractionResponseEdit(r.i, p.webhookEdit(), discordgo.WithContext(ctx))
				return err
			}))
		}
	}
	_, err := r.b.s.ChannelMessageEditComplex(p.messageEdit(at.Chat, at.Message), discordgo.WithContext(ctx))
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound {
		return fmt.Errorf("discord: edit message %s: %w", at.Message, adapters.ErrGone)
	}
	if err != nil {
		if r.i == nil {
			return r.b.logged("edit a board", err)
		}
		return r.b.logErr("edit the board", r.i, err)
	}
	return nil
}

// see records v as the last game shown.
func (r *reply) see(v session.View) {
	r.mu.Lock()
	r.shown = &v
	r.mu.Unlock()
}

// Attach sends the actor alone what they asked for: a picture, an
// animation or a record.
func (r *reply) Attach(ctx context.Context, f adapters.File) error {
	if r.i == nil {
		return errors.New("discord: no one to send a file to")
	}
	defer r.flushNotice(ctx)
	if f.Kind == adapters.Record {
		r.ephemeral(ctx, f.Caption)
		return nil
	}
	var comps []discordgo.MessageComponent
	if f.Buttons != nil {
		comps, _ = components(*f.Buttons)
	}
	ctype := "image/png"
	if f.Kind == adapters.Animation {
		ctype = "image/gif"
	}
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: f.Name, ContentType: ctype, Reader: bytes.NewReader(f.Data)}}
	}
	content := clip(f.Caption)
	if r.resp.files {
		sent, err := r.first(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
			Content: content, Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(), Files: file(),
		}})
		if sent || err != nil {
			return r.b.logErr("send a file", r.i, err)
		}
	} else {
		sent, err := r.first(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}})
		if err != nil {
			return r.b.logErr("send a file", r.i, err)
		}
		if sent {
			return r.b.logErr("send a file", r.i, r.webhook(ctx, func() error {
				_, err := r.b.s.InteractionResponseEdit(r.i, &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: noMentions(), Files: file()}, discordgo.WithContext(ctx))
				return err
			}))
		}
	}
	return r.b.logErr("send a file", r.i, r.webhook(ctx, func() error {
		_, err := r.b.s.FollowupMessageCreate(r.i, true, &discordgo.WebhookParams{
			Content: content, Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(), Files: file(),
		}, discordgo.WithContext(ctx))
		return err
	}))
}

// ephemeral shows text to the actor alone: as the first answer, or, when
// one went, as a follow-up; a command's public "thinking…" placeholder is
// removed first. comps, if any, are buttons under the text, such as the
// answers to a question.
func (r *reply) ephemeral(ctx context.Context, text string, comps ...discordgo.MessageComponent) {
	text = clip(text)
	sent, err := r.first(ctx, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
	})
	if sent || err != nil {
		r.b.logErr("reply", r.i, err)
		return
	}
	r.mu.Lock()
	placeholder := r.placeholder
	r.placeholder = false
	r.mu.Unlock()
	if placeholder && r.thinking(ctx) {
		if err := r.webhook(ctx, func() error { return r.b.s.InteractionResponseDelete(r.i, discordgo.WithContext(ctx)) }); err != nil {
			r.b.logErr("remove the placeholder", r.i, err)
		}
	}
	err = r.webhook(ctx, func() error {
		_, err := r.b.s.FollowupMessageCreate(r.i, true, &discordgo.WebhookParams{Content: text, Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()}, discordgo.WithContext(ctx))
		return err
	})
	r.b.logErr("reply", r.i, err)
}

// original reads the interaction's original response.
func (r *reply) original(ctx context.Context) (*discordgo.Message, error) {
	var msg *discordgo.Message
	err := r.webhook(ctx, func() error {
		var err error
		msg, err = r.b.s.InteractionResponse(r.i, discordgo.WithContext(ctx))
		return err
	})
	return msg, err
}

// thinking reports whether the original of a deferred command still
// shows the deferral's "thinking…": another handling of the interaction
// (a replica that took it over, or one that died after answering it) may
// have put the board there. When Discord cannot say, the original is left
// as it is.
func (r *reply) thinking(ctx context.Context) bool {
	msg, err := r.original(ctx)
	if err != nil {
		r.b.logErr("read the original", r.i, err)
		return false
	}
	return msg.Flags&discordgo.MessageFlagsLoading != 0
}

// finish completes the answer once the decision was carried out: a
// notice still kept is shown; a tap with no answer yet is acknowledged
// (type 6); a command whose answer was only an edit elsewhere, or
// nothing, gets the shown game's status line (or the help), which also
// replaces its public placeholder, unless another handling of the
// command replaced that already.
func (r *reply) finish(ctx context.Context, l render.Lang) {
	r.mu.Lock()
	answered, placeholder, notice, shown := r.answered, r.placeholder, r.notice, r.shown
	r.notice = ""
	r.mu.Unlock()
	if notice != "" {
		r.ephemeral(ctx, notice)
		return
	}
	switch {
	case r.component() && !answered:
		if _, err := r.first(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
			r.b.logErr("acknowledge", r.i, err)
		}
	case !r.component() && (!answered || placeholder):
		if answered && !r.thinking(ctx) {
			// Another handling of the command answered it: the
			// original shows its answer.
			return
		}
		note := render.T(l, render.MsgHelp)
		if shown != nil {
			note = render.Status(*shown, l)
		}
		r.ephemeral(ctx, note)
	}
}
