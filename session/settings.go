package session

import (
	"context"
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
func (s *Service) ChatSettings(ctx context.Context, p Platform, chat string) (ChatSettings, error) {
	var cs ChatSettings
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		cs, err = tx.ChatSettings(p, chat)
		return err
	})
	return cs, err
}

// SetChatSettings stores the settings of a chat. Out-of-range fields give
// ErrBadRequest, and an update handled already (see WithUpdate)
// ErrDuplicate.
func (s *Service) SetChatSettings(ctx context.Context, p Platform, chat string, cs ChatSettings) error {
	if err := cs.validate(); err != nil {
		return fmt.Errorf("session: chat settings: %w: %w", ErrBadRequest, err)
	}
	if _, err := s.duplicate(ctx); err != nil {
		return err
	}
	now := s.now()
	return s.store.Update(ctx, func(tx Tx) error {
		if err := markUpdate(ctx, tx, "", now); err != nil {
			return err
		}
		return tx.PutChatSettings(p, chat, cs)
	})
}

// UserSettings returns a user's settings on a platform.
func (s *Service) UserSettings(ctx context.Context, p Platform, userID string) (UserSettings, error) {
	var us UserSettings
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		us, err = tx.UserSettings(p, userID)
		return err
	})
	return us, err
}

// SetUserSettings stores a user's settings on a platform. Out-of-range
// fields give ErrBadRequest, and an update handled already (see
// WithUpdate) ErrDuplicate.
func (s *Service) SetUserSettings(ctx context.Context, p Platform, userID string, us UserSettings) error {
	if err := us.validate(); err != nil {
		return fmt.Errorf("session: user settings: %w: %w", ErrBadRequest, err)
	}
	if userID == "" {
		return fmt.Errorf("session: user settings: %w: no user", ErrBadRequest)
	}
	if _, err := s.duplicate(ctx); err != nil {
		return err
	}
	now := s.now()
	return s.store.Update(ctx, func(tx Tx) error {
		if err := markUpdate(ctx, tx, "", now); err != nil {
			return err
		}
		return tx.PutUserSettings(p, userID, us)
	})
}

// Lang returns the language to answer a user in a chat: the user's
// override, else the chat's language, else "" (the client's locale).
func (s *Service) Lang(ctx context.Context, who Actor) (string, error) {
	var lang string
	err := s.store.View(ctx, func(tx Tx) error {
		us, err := tx.UserSettings(who.Platform, who.User.ID)
		if err != nil || us.Lang != "" {
			lang = us.Lang
			return err
		}
		cs, err := tx.ChatSettings(who.Platform, who.Chat)
		lang = cs.Lang
		return err
	})
	return lang, err
}
