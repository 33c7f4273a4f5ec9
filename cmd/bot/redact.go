package main

import (
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// minRedacted is the length below which a secret is not cut from text:
// so short a value is too common to replace without garbling it.
const minRedacted = 6

// secrets returns the configured secrets that are set.
func (c Config) secrets() []string {
	var s []string
	for _, v := range []Secret{c.Telegram.Token, c.Telegram.Webhook.Secret, c.Discord.Token, c.Metrics.BackupToken, c.Database.Etcd.Password, c.Web.Secret} {
		if len(v) >= minRedacted {
			s = append(s, string(v))
		}
	}
	return s
}

// newRedactor returns a replacer of every secret, as it is, quoted and
// escaped for a URL path or query, with "[redacted]"; nil when there is
// no secret.
func newRedactor(secrets []string) *strings.Replacer {
	var forms []string
	for _, s := range secrets {
		q := strconv.Quote(s)
		forms = append(forms, s, q[1:len(q)-1], url.PathEscape(s), url.QueryEscape(s))
	}
	if len(forms) == 0 {
		return nil
	}
	// The longest first, so that a secret inside another goes with it.
	slices.SortFunc(forms, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	forms = slices.Compact(forms)
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, "[redacted]")
	}
	return strings.NewReplacer(pairs...)
}

// redactWriter writes through to w with every secret cut out. Each Write
// is redacted on its own: a log line is one Write.
type redactWriter struct {
	w io.Writer
	r *strings.Replacer
}

// Write writes p, redacted, to the underlying writer.
func (rw redactWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(rw.w, rw.r.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// redactedError is an error whose text had the secrets cut out; errors.Is
// and errors.As still see the original.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }

// Unwrap returns the original error.
func (e *redactedError) Unwrap() error { return e.err }

// redactError returns err with the secrets cut from its text; nil for
// nil, and err itself when its text holds no secret.
func redactError(err error, r *strings.Replacer) error {
	if err == nil || r == nil {
		return err
	}
	if text := r.Replace(err.Error()); text != err.Error() {
		return &redactedError{text: text, err: err}
	}
	return err
}
