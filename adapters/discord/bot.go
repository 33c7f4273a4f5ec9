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

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
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
	// WebLink, when set, returns the link that lets user act in game on
	// the web board: boards get a 🌐 button that answers the one who taps
	// it, alone, with theirs.
	WebLink func(game session.GameID, user string) string
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

// register overwrites the application's commands with Commands, and
// /web when the web board is on.
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
	cmds := Commands()
	if b.cfg.WebLink != nil {
		cmds = append(cmds, WebCommand())
	}
	if _, err := b.s.ApplicationCommandBulkOverwrite(app, b.cfg.GuildID, cmds); err != nil {
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

// onInteraction answers an interaction from the gateway; discordgo calls
// it on a goroutine of its own. Its first answer goes through the REST
// callback, files and all.
func (b *Bot) onInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	i := ic.Interaction
	if i == nil {
		return
	}
	deadline := b.cfg.After(b.cfg.DeferAfter)
	respond := func(_ context.Context, resp *discordgo.InteractionResponse) error {
		return b.s.InteractionRespond(i, resp)
	}
	b.serve(i, responder{respond: respond, files: true}, deadline, false)
}

// serve answers one interaction, whose first answer goes through resp,
// deferred when deadline fires (or the AI is to think long) before an
// answer went; it reports the interaction handled (Config.Handled) once
// answered, and, when mark is set or its answer posted boards, records it
// handled in the store with those boards' messages.
func (b *Bot) serve(i *discordgo.Interaction, resp responder, deadline <-chan time.Time, mark bool) {
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
	ctx, cancel := context.WithTimeout(context.WithoutCancel(base), handleTimeout)
	defer cancel()
	r := &reply{b: b, i: i, resp: resp}
	if resp.deferred != 0 {
		r.answered, r.deferred = true, resp.deferred
		r.placeholder = resp.deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource && !resp.ephemeral
	}
	req, ok := request(i)
	switch {
	case i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionMessageComponent && i.Type != discordgo.InteractionModalSubmit:
		// Autocomplete (the bot's options have fixed choices, so
		// Discord sends none) and types this bot does not know: no
		// answer is valid but an HTTP 400, which the endpoint gives.
		return
	case !ok || i.Type == discordgo.InteractionModalSubmit || (i.Type == discordgo.InteractionMessageComponent && i.Message == nil):
		// The bot opens no modals, and an interaction without its
		// user, channel or message is none it sent: refused at once.
		r.ephemeral(ctx, render.T(render.LangOf(string(i.Locale)), render.MsgUnsupported))
		return
	}
	defer r.deferAt(ctx, deadline)()
	// Marked with the interaction's id, its effect happens once even if
	// it is delivered twice.
	req.Update = i.ID
	req.Think = func(wait func()) {
		r.deferNow(ctx)
		wait()
	}
	var d adapters.Decision
	if i.Type == discordgo.InteractionApplicationCommand {
		d = b.command(ctx, i, req)
	} else if game, ok := strings.CutPrefix(i.MessageComponentData().CustomID, webPrefix); ok && b.cfg.WebLink != nil {
		// The 🌐 button: the link is for the one who tapped, alone.
		l := b.d.Lang(ctx, req)
		d = adapters.Decision{Lang: l, Effects: []adapters.Effect{adapters.Notice{Text: render.T(l, render.MsgWebLink, b.cfg.WebLink(session.GameID(game), req.User.ID))}}}
	} else {
		req.Message = i.Message.ID
		customID := i.MessageComponentData().CustomID
		req.HasButton = hasComponent(i.Message.Components, customID)
		d = b.d.Tap(ctx, req, tapData(customID))
	}
	binds := adapters.Carry(ctx, r, d, nil)
	r.finish(ctx, d.Lang)
	if resp.settle != nil {
		resp.settle()
	}
	if mark || len(binds) > 0 {
		if err := b.svc.Handled(ctx, Platform, session.Finished{Update: i.ID, Marked: d.Marked, Binds: binds}); err != nil {
			b.log.Error("discord: record the interaction handled", "interaction", i.ID, "err", err)
		}
	}
}

// Front returns the front that edits the bot's board messages for
// requests that came through another front (the web board's moves), and
// posts a new game's board, such as a rematch made there, in its
// channel. It is safe for concurrent use.
func (b *Bot) Front() adapters.Front { return editor{b} }

// editor is the Bot's front for no interaction: each call is a reply of
// its own.
type editor struct{ b *Bot }

func (e editor) Platform() session.Platform { return Platform }
func (e editor) Notify(ctx context.Context, text string) error {
	return (&reply{b: e.b}).Notify(ctx, text)
}

// Send posts the board of m in channel chat; with no interaction to
// answer, it has nothing else to say there.
func (e editor) Send(ctx context.Context, chat string, m adapters.Message) (string, error) {
	if m.Game == nil {
		return "", e.b.logged("saying something with no interaction", errors.New("discord: nothing to answer"))
	}
	p := e.b.post(*m.Game, m.Lang, m.Text, m.WindowIn(render.DiscordLayout))
	msg, err := e.b.s.ChannelMessageSendComplex(chat, &discordgo.MessageSend{Content: p.content, Components: p.comps, AllowedMentions: p.mentions(), Files: p.files()}, discordgo.WithContext(ctx))
	if err != nil {
		return "", e.b.logged("post a board", err)
	}
	return msg.ID, nil
}
func (e editor) Edit(ctx context.Context, at adapters.Place, m adapters.Message) error {
	return (&reply{b: e.b}).Edit(ctx, at, m)
}
func (e editor) Attach(ctx context.Context, f adapters.File) error {
	return (&reply{b: e.b}).Attach(ctx, f)
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

// command decides a slash command: /move names a cell, /play with an
// opponent is a challenge addressed to that member's id, and every other
// command is its text in the shared grammar.
func (b *Bot) command(ctx context.Context, i *discordgo.Interaction, req adapters.Request) adapters.Decision {
	data := i.ApplicationCommandData()
	if data.Name == cmdWeb && b.cfg.WebLink != nil {
		return b.d.Web(ctx, req, func(g session.GameID) string { return b.cfg.WebLink(g, req.User.ID) })
	}
	if data.Name == cmdMove {
		cell := ""
		for _, o := range data.Options {
			if s, ok := o.Value.(string); ok && o.Name == optCell {
				cell = strings.TrimSpace(s)
			}
		}
		return b.d.MoveCommand(ctx, req, cell)
	}
	text, opponent := commandText(data)
	if opponent != "" {
		u := resolvedUser(data, opponent)
		if u.Bot {
			lang := b.d.Lang(ctx, req)
			return adapters.Decision{Lang: lang, Effects: []adapters.Effect{adapters.Say{Text: render.T(lang, render.MsgBotOpponent)}}}
		}
		if cmd, err := adapters.ParseCommand(text, ""); err == nil && cmd.Name == adapters.CmdDuel {
			return b.d.Duel(ctx, req, cmd.Duel, u.User)
		}
	}
	return b.d.Text(ctx, req, text)
}

// expireTimeout bounds the edit of an expired game's message.
const expireTimeout = time.Minute

// Expired shows the final state of a game or challenge that the
// session's sweeper ended, by editing its message: it is the Discord
// platform's session.Config.OnExpire. Games of other platforms, and games
// whose message is unknown, are left alone; so is everything once Run has
// returned. Errors are logged. It is safe to call from any goroutine.
func (b *Bot) Expired(v session.View) {
	if v.Platform() != Platform {
		return
	}
	base, ok := b.begin()
	if !ok {
		return
	}
	defer b.inFlight.Done()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(base), expireTimeout)
	defer cancel()
	adapters.Carry(ctx, nil, b.d.Expired(ctx, v), adapters.Fronts{Platform: &reply{b: b}})
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
	if b.cfg.WebLink != nil && v.Status() == session.Running {
		comps = withWebButton(comps, string(v.ID()))
	}
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

// logErr logs a failed Discord call of interaction i (nil: of none)
// without the interaction's token, which discordgo puts in the URLs of
// its errors, and returns err; a nil err logs nothing.
func (b *Bot) logErr(what string, i *discordgo.Interaction, err error) error {
	if err == nil {
		return nil
	}
	id := ""
	if i != nil {
		id = i.ID
	}
	b.log.Error("discord: "+what, "interaction", id, "err", b.redact(err, i).Error())
	return err
}

// logged logs a failed Discord call of no interaction, and returns err.
func (b *Bot) logged(what string, err error) error { return b.logErr(what, nil, err) }

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
