package web

import (
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
)

// vectorAuth is when testdata/initdata.txt was signed.
var vectorAuth = time.Unix(1796000000, 0)

func readVector(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/initdata.txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

// TestVerifyInitDataAcceptsTheOpenSSLVector checks the initData signed
// outside the project's code (testdata/initdata.md): accepted with the
// token it was signed for, refused with another token, once too old, and
// with any field changed.
func TestVerifyInitDataAcceptsTheOpenSSLVector(t *testing.T) {
	raw := readVector(t)
	d, err := VerifyInitData(raw, telegramtest.Token, time.Hour, vectorAuth.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if d.User.ID != 4242 || d.User.FirstName != "Ann" || d.User.LanguageCode != "zh" || d.StartParam != "g42" || !d.AuthDate.Equal(vectorAuth) {
		t.Errorf("initData read as %+v", d)
	}
	q, _ := url.ParseQuery(raw)
	changed := func(k, v string) string {
		c := url.Values{}
		for key, vs := range q {
			c[key] = append([]string(nil), vs...)
		}
		c.Set(k, v)
		return c.Encode()
	}
	for name, tc := range map[string]struct {
		raw, token string
		now        time.Time
	}{
		"another bot's token":  {raw, "654321:another-token", vectorAuth},
		"token as the key":     {raw, "WebAppData", vectorAuth},
		"too old":              {raw, telegramtest.Token, vectorAuth.Add(2 * time.Hour)},
		"another user":         {changed("user", `{"id":4243,"first_name":"Ann"}`), telegramtest.Token, vectorAuth},
		"another game":         {changed("start_param", "g43"), telegramtest.Token, vectorAuth},
		"a later auth_date":    {changed("auth_date", "1796000100"), telegramtest.Token, vectorAuth},
		"no hash":              {changed("hash", ""), telegramtest.Token, vectorAuth},
		"a field given twice":  {raw + "&start_param=g42", telegramtest.Token, vectorAuth},
		"not a query":          {"%zz", telegramtest.Token, vectorAuth},
		"no token to check by": {raw, "", vectorAuth},
	} {
		if _, err := VerifyInitData(tc.raw, tc.token, time.Hour, tc.now); !errors.Is(err, ErrUnauthorized) {
			t.Errorf("%s: %v, want ErrUnauthorized", name, err)
		}
	}
}

// TestSignerGrantsOneUserOneGameUntilExpiry checks signed tokens: what
// Sign made verifies until it expires; a token changed anywhere, or made
// with another secret, does not.
func TestSignerGrantsOneUserOneGameUntilExpiry(t *testing.T) {
	now := time.Unix(1800000000, 0)
	s, err := NewSigner([]byte("a server secret of some length"))
	if err != nil {
		t.Fatal(err)
	}
	g := Grant{Platform: "discord", User: "100", Game: "g7", Expires: now.Add(time.Hour).Unix()}
	tok := s.Sign(g)
	if got, err := s.Verify(tok, now); err != nil || got != g {
		t.Fatalf("Verify: %+v, %v", got, err)
	}
	if _, err := s.Verify(tok, now.Add(time.Hour)); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("expired token: %v", err)
	}
	other, _ := NewSigner([]byte("another server secret, as long"))
	forged := other.Sign(g)
	payload, mac, _ := strings.Cut(tok, ".")
	flipped := []byte(payload)
	flipped[3] ^= 1
	for name, bad := range map[string]string{
		"another secret": forged,
		"payload edited": string(flipped) + "." + mac,
		"no mac":         payload,
		"empty":          "",
		"garbage":        "!!.!!",
	} {
		if _, err := s.Verify(bad, now); !errors.Is(err, ErrUnauthorized) {
			t.Errorf("%s: %v, want ErrUnauthorized", name, err)
		}
	}
	if _, err := NewSigner([]byte("short")); err == nil {
		t.Error("a 5-byte secret was taken")
	}
}
