package discord

import (
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// interactionKind names an interaction type for Config.OnUpdate.
func interactionKind(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return "command"
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	}
	return "other"
}

// apiErrors is an HTTP transport that reports the status of every failed
// REST call (0 when no answer came) to Config.OnAPIError.
type apiErrors struct {
	next   http.RoundTripper
	report func(code int)
}

// RoundTrip sends r through the next transport and reports a failure.
func (t apiErrors) RoundTrip(r *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(r)
	switch {
	case err != nil:
		t.report(0)
	case resp.StatusCode >= 400:
		t.report(resp.StatusCode)
	}
	return resp, err
}
