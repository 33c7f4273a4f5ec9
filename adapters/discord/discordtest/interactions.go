package discordtest

import (
	"errors"
	"fmt"
	"strconv"
)

// User is a member of the fake's guild.
type User struct {
	ID   string
	Name string
	// Locale is the user's client language, such as "en-US" or "zh-CN".
	Locale string
	Bot    bool
	// Permissions is the member's permission bits in the channel, as an
	// interaction's member.permissions carries them (such as
	// discordgo.PermissionManageGuild); zero for none.
	Permissions int64
}

// userJSON returns the user as Discord sends it.
func (u User) userJSON() map[string]any {
	return map[string]any{"id": u.ID, "username": u.Name, "global_name": u.Name, "bot": u.Bot, "discriminator": "0"}
}

// Option is an option of a slash command. Value is a string for string
// options; for user options (Type 6) User is the member named.
type Option struct {
	Name  string
	Type  int
	Value any
	User  *User
}

// StringOption returns a string option.
func StringOption(name, value string) Option { return Option{Name: name, Type: 3, Value: value} }

// UserOption returns a user option naming u.
func UserOption(name string, u User) Option {
	return Option{Name: name, Type: 6, Value: u.ID, User: &u}
}

// Command sends a slash command by user in channel as an
// INTERACTION_CREATE and returns the interaction's id.
func (s *Server) Command(user User, channel, name string, opts ...Option) (string, error) {
	options := []map[string]any{}
	users := map[string]any{}
	for _, o := range opts {
		options = append(options, map[string]any{"name": o.Name, "type": o.Type, "value": o.Value})
		if o.User != nil {
			users[o.User.ID] = o.User.userJSON()
		}
	}
	data := map[string]any{"id": "cmd-" + name, "name": name, "type": 1, "options": options}
	if len(users) > 0 {
		data["resolved"] = map[string]any{"users": users}
	}
	return s.interact(user, channel, 2, "", data)
}

// Tap sends the tap of the button with customID on a message by user and
// returns the interaction's id. The message must exist, be seen by user
// (an ephemeral message only by whom it is for) and show an enabled
// button with that custom_id, as in Discord's client.
func (s *Server) Tap(user User, messageID, customID string) (string, error) {
	m, ok := s.Message(messageID)
	if !ok || m.Deleted || (m.Ephemeral && m.VisibleTo != user.ID) {
		return "", fmt.Errorf("discordtest: tap on unknown message %s", messageID)
	}
	found := false
	for _, b := range m.Buttons() {
		if b.CustomID == customID {
			if b.Disabled {
				return "", fmt.Errorf("discordtest: button %q is disabled", customID)
			}
			found = true
		}
	}
	if !found {
		return "", fmt.Errorf("discordtest: message %s has no button %q", messageID, customID)
	}
	return s.TapForged(user, messageID, customID)
}

// TapForged sends a tap with any custom_id on a message, as a modified
// client could; the message must exist.
func (s *Server) TapForged(user User, messageID, customID string) (string, error) {
	m, ok := s.Message(messageID)
	if !ok {
		return "", errors.New("discordtest: tap on unknown message " + messageID)
	}
	return s.interact(user, m.ChannelID, 3, messageID, map[string]any{"custom_id": customID, "component_type": 2})
}

// interact registers an interaction and dispatches it.
func (s *Server) interact(user User, channel string, kind int, message string, data map[string]any) (string, error) {
	s.mu.Lock()
	in := &interaction{id: s.newID(), channel: channel, user: user.ID, kind: kind, message: message}
	in.token = "itoken-" + in.id
	in.expired = make(chan struct{})
	s.interactions[in.token] = in
	if dl := s.deadline(); dl != nil {
		go func() {
			<-dl
			s.mu.Lock()
			defer s.mu.Unlock()
			if in.resp.Type == 0 {
				in.resp.Failed = true
				close(in.expired)
				s.bump()
			}
		}()
	}
	var msg map[string]any
	if m, ok := s.messages[message]; ok {
		msg = s.messageJSON(m)
	}
	s.mu.Unlock()
	locale := user.Locale
	if locale == "" {
		locale = "en-US"
	}
	ev := map[string]any{
		"id": in.id, "application_id": AppID, "type": kind, "token": in.token, "version": 1,
		"channel_id": channel, "guild_id": GuildID, "locale": locale, "guild_locale": "en-US",
		"member": map[string]any{"user": user.userJSON(), "roles": []string{}, "joined_at": "2026-01-01T00:00:00Z", "permissions": strconv.FormatInt(user.Permissions, 10)},
		"data":   data,
	}
	if msg != nil {
		ev["message"] = msg
	}
	s.mu.Lock()
	in.event = ev
	ep := s.endpoint
	s.mu.Unlock()
	if ep != nil {
		return in.id, s.deliverHTTP(ep, in, ev)
	}
	if err := s.Dispatch("INTERACTION_CREATE", ev); err != nil {
		s.mu.Lock()
		delete(s.interactions, in.token)
		s.mu.Unlock()
		return "", err
	}
	return in.id, nil
}

// Redeliver dispatches the INTERACTION_CREATE of interaction id again,
// unchanged, as the gateway may after a resume; the interaction keeps its
// answer, so a second answer is refused as Discord refuses it.
func (s *Server) Redeliver(id string) error {
	s.mu.Lock()
	var ev map[string]any
	for _, in := range s.interactions {
		if in.id == id {
			ev = in.event
		}
	}
	s.mu.Unlock()
	if ev == nil {
		return fmt.Errorf("discordtest: no interaction %s", id)
	}
	return s.Dispatch("INTERACTION_CREATE", ev)
}
