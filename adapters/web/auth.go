package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardbot/boardbot/session"
)

// ErrUnauthorized is returned, wrapped, for a token or initData that is
// forged, malformed or expired.
var ErrUnauthorized = errors.New("web: not authorized")

// Grant is what a token lets its holder do: act as User of Platform in
// Game, and nothing else, until Expires.
type Grant struct {
	Platform session.Platform `json:"p"`
	User     string           `json:"u"`
	Game     session.GameID   `json:"g"`
	Expires  int64            `json:"e"` // unix seconds
}

// Signer signs and checks grants with a server secret (HMAC-SHA256).
type Signer struct {
	key []byte
}

// NewSigner returns the Signer of secret, which must not be empty.
func NewSigner(secret []byte) (*Signer, error) {
	if len(secret) < 16 {
		return nil, errors.New("web: the secret is shorter than 16 bytes")
	}
	// A key of its own, so that the secret serves nothing else as is.
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("boardbot web grants v1"))
	return &Signer{key: m.Sum(nil)}, nil
}

// Sign returns the token of g.
func (s *Signer) Sign(g Grant) string {
	payload, _ := json.Marshal(g)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(payload))
}

// Verify returns the grant of token when the token is one Sign made and
// it has not expired at now.
func (s *Signer) Verify(token string, now time.Time) (Grant, error) {
	enc := base64.RawURLEncoding
	p, m, ok := strings.Cut(token, ".")
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(m)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, s.mac(payload)) {
		return Grant{}, errors.Join(ErrUnauthorized, errors.New("web: a forged or malformed token"))
	}
	var g Grant
	if err := json.Unmarshal(payload, &g); err != nil || g.User == "" || g.Game == "" || g.Platform == "" {
		return Grant{}, errors.Join(ErrUnauthorized, errors.New("web: a malformed grant"))
	}
	if now.Unix() >= g.Expires {
		return Grant{}, errors.Join(ErrUnauthorized, errors.New("web: an expired token"))
	}
	return g, nil
}

func (s *Signer) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return m.Sum(nil)
}

// TelegramUser is the user a Mini App's initData names.
type TelegramUser struct {
	ID           int64  `json:"id"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Username     string `json:"username"`
	LanguageCode string `json:"language_code"`
}

// InitData is a checked Telegram Mini App launch: its user and the
// start parameter (the game a link opened).
type InitData struct {
	User       TelegramUser
	StartParam string
	AuthDate   time.Time
}

// VerifyInitData checks the initData a Telegram client handed a Mini App,
// as Telegram's Mini App docs say: the hash is the hex HMAC-SHA256 of the
// data-check-string (every field but hash, sorted by key, key=value,
// joined by newlines) keyed with the HMAC-SHA256 of the bot token keyed
// with "WebAppData"; and auth_date is at most maxAge before now.
func VerifyInitData(raw, botToken string, maxAge time.Duration, now time.Time) (InitData, error) {
	bad := func(why string) (InitData, error) {
		return InitData{}, errors.Join(ErrUnauthorized, errors.New("web: initData: "+why))
	}
	if botToken == "" {
		return bad("no bot token to check it with")
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return bad("malformed")
	}
	hash := q.Get("hash")
	want, err := hex.DecodeString(hash)
	if err != nil || len(want) != sha256.Size || len(q["hash"]) != 1 {
		return bad("no valid hash")
	}
	keys := make([]string, 0, len(q))
	for k, vs := range q {
		if len(vs) != 1 {
			return bad("a field given twice")
		}
		if k != "hash" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = k + "=" + q.Get(k)
	}
	secret := hmac.New(sha256.New, []byte("WebAppData"))
	secret.Write([]byte(botToken))
	m := hmac.New(sha256.New, secret.Sum(nil))
	m.Write([]byte(strings.Join(lines, "\n")))
	if !hmac.Equal(m.Sum(nil), want) {
		return bad("the hash does not match")
	}
	sec, err := strconv.ParseInt(q.Get("auth_date"), 10, 64)
	if err != nil {
		return bad("no auth_date")
	}
	at := time.Unix(sec, 0)
	if age := now.Sub(at); age > maxAge || age < -time.Minute {
		return bad("too old")
	}
	var u TelegramUser
	if err := json.Unmarshal([]byte(q.Get("user")), &u); err != nil || u.ID == 0 {
		return bad("no user")
	}
	return InitData{User: u, StartParam: q.Get("start_param"), AuthDate: at}, nil
}
