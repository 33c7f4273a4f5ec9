package session

import (
	"fmt"

	"github.com/boardbot/boardbot/engine"
)

// ChatSettings are a chat's choices. Zero fields mean "not set": the
// adapters' defaults apply.
type ChatSettings struct {
	// Lang is the chat's language code, such as "en" or "zh".
	Lang string `json:"lang,omitempty"`
	// Rules is the game of a bare /play; zero when not set.
	Rules engine.Rules `json:"rules,omitzero"`
	// Level is the AI level of a bare /play; zero when not set.
	Level engine.Level `json:"level,omitempty"`
	// Owner is the id of the user a chat that is one message belongs to
	// (a Telegram inline message: its poster, the first to play there);
	// empty for other chats. Set by Start and Challenge with Alone.
	Owner string `json:"owner,omitempty"`
}

// UserSettings are a user's choices on a platform.
type UserSettings struct {
	// Lang overrides the language of the chat and of the user's client.
	Lang string `json:"lang,omitempty"`
}

// validLang reports whether code has the shape of a language code: empty,
// or up to 8 ASCII letters and dashes.
func validLang(code string) bool {
	if len(code) > 8 {
		return false
	}
	for _, c := range []byte(code) {
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}

// validate returns an error when a field is out of range.
func (s ChatSettings) validate() error {
	switch {
	case !validLang(s.Lang):
		return fmt.Errorf("language %q", s.Lang)
	case s.Rules != (engine.Rules{}) && s.Rules.Validate() != nil:
		return s.Rules.Validate()
	case s.Level != 0 && !s.Level.Valid():
		return fmt.Errorf("level %d", s.Level)
	}
	return nil
}

// validate returns an error when a field is out of range.
func (s UserSettings) validate() error {
	if !validLang(s.Lang) {
		return fmt.Errorf("language %q", s.Lang)
	}
	return nil
}

// ChatSettings returns the settings of the actor's chat.
func (t *Turn) ChatSettings() (ChatSettings, error) {
	who := t.req.Actor
	return t.tx().ChatSettings(who.Platform, who.Chat)
}

// SetChatSettings stores the settings of the actor's chat. Out-of-range
// fields give ErrBadRequest, and an update handled already (see
// Request.Update) ErrDuplicate.
func (t *Turn) SetChatSettings(cs ChatSettings) error {
	if err := cs.validate(); err != nil {
		return fmt.Errorf("session: chat settings: %w: %w", ErrBadRequest, err)
	}
	who := t.req.Actor
	return t.settle(func(lt layout) error { return lt.PutChatSettings(who.Platform, who.Chat, cs) })
}

// SetUserSettings stores the actor's settings on the platform.
// Out-of-range fields give ErrBadRequest, and an update handled already
// (see Request.Update) ErrDuplicate.
func (t *Turn) SetUserSettings(us UserSettings) error {
	if err := us.validate(); err != nil {
		return fmt.Errorf("session: user settings: %w: %w", ErrBadRequest, err)
	}
	who := t.req.Actor
	if who.User.ID == "" {
		return fmt.Errorf("session: user settings: %w: no user", ErrBadRequest)
	}
	return t.settle(func(lt layout) error { return lt.PutUserSettings(who.Platform, who.User.ID, us) })
}

// settle commits write as the effect of the turn's update, which names
// no game, writing it again after a conflict.
func (t *Turn) settle(write func(layout) error) error {
	for attempt := 0; ; attempt++ {
		if _, err := t.duplicate(); err != nil {
			return err
		}
		err := t.commit("", write)
		if err == nil || !t.conflicted(err, attempt) {
			return err
		}
	}
}
