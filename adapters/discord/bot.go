package discord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/bwmarrin/discordgo"
)

// Platform is the session platform of Discord games.
const Platform session.Platform = "discord"

// DefaultDeferAfter is how long an interaction may run before the bot
// defers its answer: Discord wants an answer within three seconds.
const DefaultDeferAfter = 2 * time.Second

// handleTimeout bounds the work on one interaction; Discord keeps an
// interaction's token for fifteen minutes.
const handleTimeout = 5 * time.Minute

// maxContentLen is the longest message text Discord takes.
const maxContentLen = 2000

// ErrNoToken is returned by New when Config.Token is empty.
var ErrNoToken = errors.New("discord: no bot token")

// Config configures a Bot.
type Config struct {
	// Token is the bot token from the developer portal, without "Bot ".
	Token string
	// AppID is the application id; empty means the one the gateway's
	// READY names.
	AppID string
	// GuildID, when set, registers the commands on that server only
	// (updates show at once); otherwise they are global.
	GuildID string
	// DeferAfter is how long an interaction may run before its answer is
	// deferred. Zero means DefaultDeferAfter.
	DeferAfter time.Duration
	// After returns a channel that delivers once d has passed; nil means
	// time.After. Tests replace it to decide deferral without a clock.
	After func(d time.Duration) <-chan time.Time
	// Handled, when set, is called with an interaction's id once the bot
	// has finished answering it.
	Handled func(interactionID string)
	// Log receives errors; nil discards them. Tokens are never logged.
	Log *slog.Logger
	// OnUpdate, when set, is called with the kind ("command",
	// "component", "autocomplete" or "other") of every interaction the
	// bot receives, for metrics.
	OnUpdate func(kind string)
	// OnAPIError, when set, is called with the HTTP status (0: no answer)
	// of every REST call that fails, for metrics.
	OnAPIError func(code int)
}

// Bot serves the games on Discord: it registers the slash commands and
// answers interactions from the gateway.
type Bot struct {
	s *discordgo.Session
	d *adapters.Dispatcher
	// svc is asked only for the bookkeeping of HTTP interactions (which
	// ids were handled); every game question goes through d.
	svc *session.Service
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	ctx      context.Context
	stopped  bool
	inFlight sync.WaitGroup
}

// New returns a Bot playing the games of svc with the bot token of cfg.
// It connects nothing until Run.
func New(svc *session.Service, cfg Config) (*Bot, error) {
	if cfg.Token == "" {
		return nil, ErrNoToken
	}
	if cfg.DeferAfter <= 0 {
		cfg.DeferAfter = DefaultDeferAfter
	}
	if cfg.After == nil {
		cfg.After = time.After
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("discord: new session: %w", err)
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	s.ShouldReconnectOnError = true
	s.ShouldRetryOnRateLimit = true
	if cfg.OnAPIError != nil {
		c := *s.Client
		c.Transport = apiErrors{next: c.Transport, report: cfg.OnAPIError}
		s.Client = &c
	}
	b := &Bot{s: s, d: adapters.NewDispatcher(svc, Platform, "", log), svc: svc, cfg: cfg, log: log, ctx: context.Background()}
	s.AddHandler(b.onInteraction)
	return b, nil
}

// Run connects to the gateway, registers the commands by bulk overwrite,
// and answers interactions until ctx is done; then it waits for the
// interactions in progress and disconnects. Run is called once.
func (b *Bot) Run(ctx context.Context) error {
	b.mu.Lock()
	b.ctx, b.stopped = ctx, false
	b.mu.Unlock()
	if err := b.s.Open(); err != nil {
		return fmt.Errorf("discord: connect to the gateway: %w", b.redact(err, nil))
	}
	err := b.register()
	if err == nil {
		<-ctx.Done()
	}
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	b.inFlight.Wait()
	if cerr := b.s.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("discord: disconnect: %w", b.redact(cerr, nil))
	}
	return err
}

// register overwrites the application's commands with Commands.
func (b *Bot) register() error {
	app := b.cfg.AppID
	if app == "" && b.s.State != nil {
		b.s.State.RLock()
		if a := b.s.State.Application; a != nil {
			app = a.ID
		} else if u := b.s.State.User; u != nil {
			app = u.ID
		}
		b.s.State.RUnlock()
	}
	if app == "" {
		return errors.New("discord: no application id: set discord.app_id")
	}
	if _, err := b.s.ApplicationCommandBulkOverwrite(app, b.cfg.GuildID, Commands()); err != nil {
		return fmt.Errorf("discord: register commands: %w", b.redact(err, nil))
	}
	return nil
}

// begin registers an interaction in progress and returns its context, or
// false when the bot is stopping.
func (b *Bot) begin() (context.Context, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return nil, false
	}
	b.inFlight.Add(1)
	return b.ctx, true
}

// onInteraction answers one interaction; discordgo calls it on a
// goroutine of its own.
func (b *Bot) onInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	i := ic.Interaction
	if i == nil {
		return
	}
	if b.cfg.OnUpdate != nil {
		b.cfg.OnUpdate(interactionKind(i.Type))
	}
	base, ok := b.begin()
	if !ok {
		return
	}
	defer b.inFlight.Done()
	if b.cfg.Handled != nil {
		defer b.cfg.Handled(i.ID)
	}
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("discord: interaction panicked", "interaction", i.ID, "panic", fmt.Sprint(p))
		}
	}()
	// Marked with the interaction's id, its effect happens once even if
	// the gateway delivers it twice (session.WithUpdate).
	ctx, cancel := context.WithTimeout(session.WithUpdate(context.WithoutCancel(base), Platform, i.ID), handleTimeout)
	defer cancel()
	req, ok := request(i)
	if !ok {
		return
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		b.onCommand(ctx, i, req)
	case discordgo.InteractionMessageComponent:
		b.onComponent(ctx, i, req)
	}
}

// request returns the dispatcher request of an interaction: its channel,
// the user (as a member in servers, directly in DMs) and their locale.
func request(i *discordgo.Interaction) (adapters.Request, bool) {
	u, nick := i.User, ""
	if i.Member != nil && i.Member.User != nil {
		u, nick = i.Member.User, i.Member.Nick
	}
	if u == nil || u.ID == "" || i.ChannelID == "" {
		return adapters.Request{}, false
	}
	// The first of the names that shows anything: a nickname of zero-width
	// characters must not hide the user's own name.
	name := ""
	for _, n := range []string{nick, u.GlobalName, u.Username} {
		if name = render.CleanName(n); name != "" {
			break
		}
	}
	return adapters.Request{Chat: i.ChannelID, User: session.User{ID: u.ID, Name: name, Handle: u.Username}, Locale: string(i.Locale), Admin: admin(i.Member), Private: i.GuildID == ""}, true
}

// adminPermissions are the permissions, any of them, that let a member
// change a channel's settings (/chatlang).
const adminPermissions = discordgo.PermissionAdministrator | discordgo.PermissionManageGuild | discordgo.PermissionManageChannels

// admin returns the Request.Admin of an interaction's member: one with
// adminPermissions in the channel, as the interaction carries them, or
// anyone in a direct message (no member).
func admin(m *discordgo.Member) func(context.Context) (bool, error) {
	ok := m == nil || m.Permissions&adminPermissions != 0
	return func(context.Context) (bool, error) { return ok, nil }
}

// await runs work and returns its reply. When slow is set, or work is
// still running after DeferAfter, it first answers the interaction with
// the deferral deferType; deferred reports whether it did, so the caller
// completes the answer with edits and follow-ups.
func (b *Bot) await(i *discordgo.Interaction, slow bool, deferType discordgo.InteractionResponseType, failed adapters.Reply, work func() adapters.Reply) (r adapters.Reply, deferred bool) {
	done := make(chan adapters.Reply, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("discord: action panicked", "interaction", i.ID, "panic", fmt.Sprint(p))
				done <- failed
			}
		}()
		done <- work()
	}()
	if !slow {
		select {
		case r := <-done:
			return r, false
		case <-b.cfg.After(b.cfg.DeferAfter):
		}
	}
	if err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: deferType}); err != nil {
		b.logErr("defer", i, err)
	}
	return <-done, true
}

// onComponent handles a tapped button.
func (b *Bot) onComponent(ctx context.Context, i *discordgo.Interaction, req adapters.Request) {
	if i.Message == nil {
		return
	}
	req.Message = i.Message.ID
	customID := i.MessageComponentData().CustomID
	req.HasButton = hasComponent(i.Message.Components, customID)
	data := tapData(customID)
	lang := b.d.Lang(ctx, req)
	failed := adapters.Reply{Lang: lang, Notice: render.T(lang, render.MsgInternal)}
	r, deferred := b.await(i, b.d.SlowTap(ctx, req, data), discordgo.InteractionResponseDeferredMessageUpdate, failed, func() adapters.Reply {
		return b.d.Tap(ctx, req, data)
	})
	answered := deferred
	if r.Game != nil {
		p := b.post(*r.Game, r.Lang, r.Text, r.WindowIn(render.DiscordLayout))
		switch r.Edit {
		case i.Message.ID:
			var err error
			if deferred {
				_, err = b.s.InteractionResponseEdit(i, p.webhookEdit())
			} else {
				err = b.s.InteractionRespond(i, &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseUpdateMessage, Data: p.responseData(true),
				})
			}
			if err != nil {
				b.logErr("update the board", i, err)
			}
			answered = true
		case "":
			if !answered {
				b.ack(i)
				answered = true
			}
			m, err := b.s.FollowupMessageCreate(i, true, p.webhookParams())
			if err != nil {
				b.logErr("post the board", i, err)
				break
			}
			if err := b.d.Bind(ctx, r.Game.ID(), m.ID); err != nil {
				b.log.Error("discord: bind the board", "game", r.Game.ID(), "err", err)
			}
		default:
			b.editBoard(ctx, i, r.Edit, p)
		}
	}
	if r.Record != "" || r.Replay != nil || r.Chart != nil {
		b.sendRecords(i, answered, r)
		return
	}
	note := r.Notice
	if note == "" && r.Game == nil {
		note = r.Text
	}
	if note != "" {
		b.ephemeral(i, answered, note)
		return
	}
	if !answered {
		b.ack(i)
	}
}

// chartName is the file name of a chart attachment.
const chartName = "chart.png"

// sendChart sends the reply's chart as an attachment only the user sees,
// with the 📈 button.
func (b *Bot) sendChart(i *discordgo.Interaction, answered bool, r adapters.Reply) {
	if !answered {
		b.ack(i)
	}
	comps, _ := components(r.Chart.Buttons)
	_, err := b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
		Content: clip(r.Chart.Caption), Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
		Files: []*discordgo.File{{Name: chartName, ContentType: "image/png", Reader: bytes.NewReader(r.Chart.PNG)}},
	})
	if err != nil {
		b.logErr("send a chart", i, err)
	}
}

// replayName is the file name of a replay attachment.
const replayName = "replay.gif"

// sendRecords answers ▶️ and 📋 with the replay GIF as an attachment, or
// the game's record, seen by the tapper only.
func (b *Bot) sendRecords(i *discordgo.Interaction, answered bool, r adapters.Reply) {
	if r.Chart != nil {
		b.sendChart(i, answered, r)
		return
	}
	if r.Record != "" {
		b.ephemeral(i, answered, r.Record)
		return
	}
	gif, err := render.Replay(*r.Replay)
	if err != nil {
		b.log.Error("discord: render a replay", "game", r.Replay.ID(), "err", err)
		b.ephemeral(i, answered, render.T(r.Lang, render.MsgInternal))
		return
	}
	if !answered {
		b.ack(i)
	}
	_, err = b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
		Content: clip(render.ReplayCaption(*r.Replay, r.Lang)), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
		Files: []*discordgo.File{{Name: replayName, ContentType: "image/gif", Reader: bytes.NewReader(gif)}},
	})
	if err != nil {
		b.logErr("send a replay", i, err)
	}
}

// onCommand handles a slash command.
func (b *Bot) onCommand(ctx context.Context, i *discordgo.Interaction, req adapters.Request) {
	data := i.ApplicationCommandData()
	lang := b.d.Lang(ctx, req)
	failed := adapters.Reply{Lang: lang, Text: render.T(lang, render.MsgInternal)}
	var work func() adapters.Reply
	var slow bool
	switch data.Name {
	case cmdMove:
		cell := ""
		for _, o := range data.Options {
			if s, ok := o.Value.(string); ok && o.Name == optCell {
				cell = strings.TrimSpace(s)
			}
		}
		slow = b.d.SlowText(ctx, req, cell)
		work = func() adapters.Reply { return b.d.MoveCommand(ctx, req, cell) }
	default:
		text, opponent := commandText(data)
		cmd, err := adapters.ParseCommand(text, "")
		slow = b.d.SlowText(ctx, req, text)
		work = func() adapters.Reply { return b.d.Command(ctx, req, text) }
		if opponent != "" {
			u := resolvedUser(data, opponent)
			if u.Bot {
				b.ephemeral(i, false, render.T(lang, render.MsgBotOpponent))
				return
			}
			if err == nil && cmd.Name == adapters.CmdDuel {
				work = func() adapters.Reply { return b.d.Duel(ctx, req, cmd.Duel, u.User) }
			}
		}
	}
	r, deferred := b.await(i, slow, discordgo.InteractionResponseDeferredChannelMessageWithSource, failed, work)
	if r.Game == nil {
		text := r.Text
		if r.Record != "" {
			text = r.Record
		}
		if text == "" {
			text = render.T(lang, render.MsgHelp)
		}
		var comps []discordgo.MessageComponent
		if r.Buttons != nil {
			comps, _ = components(*r.Buttons)
		}
		b.ephemeral(i, deferred, text, comps...)
		if r.Chart != nil {
			b.sendChart(i, true, r)
		}
		return
	}
	if r.Edit != "" && b.editBoard(ctx, i, r.Edit, b.post(*r.Game, r.Lang, "", r.WindowIn(render.DiscordLayout))) {
		note := r.Text
		if note == "" {
			note = render.Status(*r.Game, r.Lang)
		}
		b.ephemeral(i, deferred, note)
		return
	}
	p := b.post(*r.Game, r.Lang, r.Text, r.WindowIn(render.DiscordLayout))
	var m *discordgo.Message
	var err error
	if deferred {
		m, err = b.s.InteractionResponseEdit(i, p.webhookEdit())
	} else {
		err = b.s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource, Data: p.responseData(false),
		})
		if err == nil {
			m, err = b.s.InteractionResponse(i)
		}
	}
	if err != nil {
		b.logErr("post the board", i, err)
		return
	}
	if err := b.d.Bind(ctx, r.Game.ID(), m.ID); err != nil {
		b.log.Error("discord: bind the board", "game", r.Game.ID(), "err", err)
	}
}

// editBoard edits the board message id in the interaction's channel to
// show p, and reports whether it succeeded.
func (b *Bot) editBoard(ctx context.Context, i *discordgo.Interaction, id string, p post) bool {
	if _, err := b.s.ChannelMessageEditComplex(p.messageEdit(i.ChannelID, id), discordgo.WithContext(ctx)); err != nil {
		b.logErr("edit the board", i, err)
		return false
	}
	return true
}

// expireTimeout bounds the edit of an expired game's message.
const expireTimeout = time.Minute

// Expired shows the final state of a game or challenge that the
// session's sweeper ended, by editing its message: it is the Discord
// platform's session.Config.OnExpire. Games of other platforms, and games
// whose message is unknown, are left alone; so is everything once Run has
// returned. Errors are logged. It is safe to call from any goroutine.
func (b *Bot) Expired(v session.View) {
	if v.Platform() != Platform || v.Message() == "" {
		return
	}
	base, ok := b.begin()
	if !ok {
		return
	}
	defer b.inFlight.Done()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(base), expireTimeout)
	defer cancel()
	r := b.d.Expired(ctx, v)
	if r.Game == nil || r.Edit == "" {
		return
	}
	p := b.post(*r.Game, r.Lang, r.Text, r.WindowIn(render.DiscordLayout))
	if _, err := b.s.ChannelMessageEditComplex(p.messageEdit(v.Chat(), r.Edit), discordgo.WithContext(ctx)); err != nil {
		b.log.Error("discord: show the expired game", "game", v.ID(), "err", b.redact(err, nil).Error())
	}
}

// ack answers a tap without changing its message.
func (b *Bot) ack(i *discordgo.Interaction) {
	if err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		b.logErr("acknowledge", i, err)
	}
}

// ephemeral shows text to the interacting user only: as the answer, or,
// when the interaction was answered already, as a follow-up. The public
// "thinking" placeholder of a deferred command is removed first. comps,
// if any, are buttons under the text, such as the answers to a question.
func (b *Bot) ephemeral(i *discordgo.Interaction, answered bool, text string, comps ...discordgo.MessageComponent) {
	text = clip(text)
	if !answered {
		err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text, Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
		})
		if err != nil {
			b.logErr("reply", i, err)
		}
		return
	}
	if i.Type == discordgo.InteractionApplicationCommand {
		if err := b.s.InteractionResponseDelete(i); err != nil {
			b.logErr("remove the placeholder", i, err)
		}
	}
	_, err := b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: text, Components: comps, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()})
	if err != nil {
		b.logErr("reply", i, err)
	}
}

// pictureName is the file name of a board's picture attachment.
const pictureName = "board.png"

// post is a message showing a game or a challenge.
type post struct {
	content string
	comps   []discordgo.MessageComponent
	// picture is a PNG of the whole board, attached when the buttons show
	// only part of it; nil for none.
	picture []byte
	// mention is the user the message pings: the member an open challenge
	// is addressed to; empty for none.
	mention string
}

// post returns the message showing v in language l (render.Message), with
// an optional line above it; window, when set, is the top-left cell of
// the part of a large board the buttons show.
func (b *Bot) post(v session.View, l render.Lang, above string, window *engine.Point) post {
	c := render.Compose(v, l, render.DiscordLayout, window)
	text := c.Text
	if above != "" {
		text = above + "\n\n" + text
	}
	comps, trimmed := components(c.Keyboard)
	if (trimmed || c.HasPicture) && v.Status() == session.Running {
		text += "\n" + render.T(l, render.MsgTypeMoves)
	}
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	p := post{comps: comps}
	if render.IsChallenge(v) && v.Status() == session.Open {
		if to := v.Seat(v.Challenger().Opponent()).User; to.ID != "" {
			p.mention = to.ID
			text = "<@" + to.ID + "> " + text
		}
	}
	p.content = clip(text)
	if c.HasPicture {
		pic, err := render.Picture(v)
		if err != nil {
			b.log.Error("discord: draw the board", "game", v.ID(), "err", err)
		}
		p.picture = pic
	}
	return p
}

// files returns the message's attachments to upload.
func (p post) files() []*discordgo.File {
	if p.picture == nil {
		return nil
	}
	return []*discordgo.File{{Name: pictureName, ContentType: "image/png", Reader: bytes.NewReader(p.picture)}}
}

// mentions returns whom the message may ping: the challenged member, or
// nobody (a nickname "@everyone" in a board pings no one).
func (p post) mentions() *discordgo.MessageAllowedMentions {
	if p.mention == "" {
		return noMentions()
	}
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: []string{p.mention}}
}

// replaced returns the attachments of an edited message to keep: none,
// so that the picture uploaded with the edit, if any, replaces the old
// one (API v9: uploaded files are added to the kept attachments).
func replaced() *[]*discordgo.MessageAttachment {
	return &[]*discordgo.MessageAttachment{}
}

// responseData returns the message as an interaction response's data;
// edit says that it updates the tapped message.
func (p post) responseData(edit bool) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{Content: p.content, Components: p.comps, AllowedMentions: p.mentions(), Files: p.files()}
	if edit {
		d.Attachments = replaced()
	}
	return d
}

// webhookEdit returns the message as an edit of an interaction's
// response.
func (p post) webhookEdit() *discordgo.WebhookEdit {
	comps := p.comps
	return &discordgo.WebhookEdit{Content: &p.content, Components: &comps, AllowedMentions: p.mentions(), Files: p.files(), Attachments: replaced()}
}

// webhookParams returns the message as a follow-up.
func (p post) webhookParams() *discordgo.WebhookParams {
	return &discordgo.WebhookParams{Content: p.content, Components: p.comps, AllowedMentions: p.mentions(), Files: p.files()}
}

// messageEdit returns the message as an edit of message id in channel.
func (p post) messageEdit(channel, id string) *discordgo.MessageEdit {
	comps := p.comps
	return &discordgo.MessageEdit{
		Channel: channel, ID: id, Content: &p.content, Components: &comps,
		AllowedMentions: p.mentions(), Files: p.files(), Attachments: replaced(),
	}
}

// clip cuts text to Discord's message length.
func clip(s string) string {
	if r := []rune(s); len(r) > maxContentLen {
		return string(r[:maxContentLen-1]) + "…"
	}
	return s
}

// noMentions keeps names in a message (a nickname "@everyone") from
// pinging anyone.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// logErr logs a failed Discord call without the interaction's token,
// which discordgo puts in the URLs of its errors.
func (b *Bot) logErr(what string, i *discordgo.Interaction, err error) {
	b.log.Error("discord: "+what, "interaction", i.ID, "err", b.redact(err, i).Error())
}

// redactedError is an error whose text has its secrets replaced; it
// unwraps to the original.
type redactedError struct {
	msg string
	err error
}

// Error returns the redacted text.
func (e *redactedError) Error() string { return e.msg }

// Unwrap returns the original error.
func (e *redactedError) Unwrap() error { return e.err }

// redact returns err with the bot token and the interaction's token (which
// discordgo puts in its URLs) replaced in its text.
func (b *Bot) redact(err error, i *discordgo.Interaction) error {
	s := err.Error()
	if b.cfg.Token != "" {
		s = strings.ReplaceAll(s, b.cfg.Token, "[redacted]")
	}
	if i != nil && i.Token != "" {
		s = strings.ReplaceAll(s, i.Token, "[redacted]")
	}
	return &redactedError{msg: s, err: err}
}
