package webtest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
)

// SignInitData returns a Telegram Mini App's initData of fields, signed
// with the bot token as Telegram signs it (the algorithm the web
// package's openssl test vector pins).
func SignInitData(token string, fields map[string]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	lines := make([]string, len(keys))
	q := url.Values{}
	for i, k := range keys {
		lines[i] = k + "=" + fields[k]
		q.Set(k, fields[k])
	}
	secret := hmac.New(sha256.New, []byte("WebAppData"))
	secret.Write([]byte(token))
	m := hmac.New(sha256.New, secret.Sum(nil))
	m.Write([]byte(strings.Join(lines, "\n")))
	q.Set("hash", hex.EncodeToString(m.Sum(nil)))
	return q.Encode()
}
