package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Kinds of Bot API failure; an *APIError wraps one of them when it applies.
var (
	// ErrFlood is returned when Telegram's flood control refused a call
	// (HTTP 429); APIError.RetryAfter says how long to wait.
	ErrFlood = errors.New("telegram: flood control")
	// ErrNotModified is returned by an edit that would change nothing;
	// callers count it as success.
	ErrNotModified = errors.New("telegram: message is not modified")
	// ErrTransient is returned for failures worth retrying later: server
	// errors (5xx), network errors and unreadable answers.
	ErrTransient = errors.New("telegram: temporary failure")
	// ErrConfig is returned by New for an unusable configuration.
	ErrConfig = errors.New("telegram: bad configuration")
)

// APIError is a failed Bot API call.
type APIError struct {
	// Method is the Bot API method called, such as "editMessageText".
	Method string
	// Code is the Bot API error code (an HTTP status), or 0 when the call
	// did not get an answer.
	Code int
	// Description is Telegram's explanation, or the network error.
	Description string
	// RetryAfter is how long flood control asks to wait.
	RetryAfter time.Duration
	kind       error
}

// Error describes the failed call; it never contains the token.
func (e *APIError) Error() string {
	s := fmt.Sprintf("telegram: %s: ", e.Method)
	if e.Code != 0 {
		s += fmt.Sprintf("%d ", e.Code)
	}
	s += e.Description
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %v)", e.RetryAfter)
	}
	return s
}

// Unwrap returns the kind of failure (ErrFlood, ErrNotModified,
// ErrTransient, or context.Canceled or context.DeadlineExceeded when the
// call's context ended or its time ran out), or nil for a plain refusal.
func (e *APIError) Unwrap() error { return e.kind }

// classify turns an error of the client library into an *APIError of the
// right kind. Whatever err is, the result holds neither the request's URL
// (which contains the token) nor the token: a failure without an answer
// keeps only what went wrong, and the token is cut from any text. A
// context's end stays visible to errors.Is, without the URL.
func classify(method, token string, err error) error {
	if err == nil {
		return nil
	}
	var te *tgbotapi.Error
	var tv tgbotapi.Error
	switch {
	case errors.As(err, &te):
		return apiError(method, te.Code, redactToken(te.Message, token), te.RetryAfter)
	case errors.As(err, &tv):
		return apiError(method, tv.Code, redactToken(tv.Message, token), tv.RetryAfter)
	}
	text := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		// The URL holds the token; keep only what went wrong.
		text = ue.Err.Error()
	}
	e := &APIError{Method: method, Description: redactToken(text, token), kind: ErrTransient}
	switch {
	case errors.Is(err, context.Canceled):
		e.kind = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		e.kind = context.DeadlineExceeded
	}
	return e
}

// redactToken replaces the token, as it is and as it would be escaped in
// a URL, with "<token>" in text.
func redactToken(text, token string) string {
	if token == "" {
		return text
	}
	for _, form := range []string{token, url.PathEscape(token), url.QueryEscape(token)} {
		text = strings.ReplaceAll(text, form, "<token>")
	}
	return text
}

// apiError builds the typed error of a Bot API refusal.
func apiError(method string, code int, description string, retryAfter int) *APIError {
	e := &APIError{Method: method, Code: code, Description: description, RetryAfter: time.Duration(retryAfter) * time.Second}
	switch {
	case retryAfter > 0 || code == 429 || strings.HasPrefix(description, "Too Many Requests"):
		e.kind = ErrFlood
		if e.RetryAfter <= 0 {
			e.RetryAfter = time.Second
		}
	case strings.Contains(description, "message is not modified"):
		e.kind = ErrNotModified
	case code >= 500:
		e.kind = ErrTransient
	}
	return e
}
