package discord

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestAPIErrorsReportsFailedCalls(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ok" {
			return
		}
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	var codes []int
	c := &http.Client{Transport: apiErrors{report: func(code int) { codes = append(codes, code) }}}
	for _, path := range []string{"/ok", "/flood"} {
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	srv.Close()
	if _, err := c.Get(srv.URL + "/gone"); err == nil {
		t.Fatal("a closed server answered")
	}
	if !slices.Equal(codes, []int{http.StatusTooManyRequests, 0}) {
		t.Fatalf("reported %v, want [429 0]", codes)
	}
}

func TestInteractionKinds(t *testing.T) {
	for typ, want := range map[discordgo.InteractionType]string{
		discordgo.InteractionApplicationCommand:             "command",
		discordgo.InteractionMessageComponent:               "component",
		discordgo.InteractionApplicationCommandAutocomplete: "autocomplete",
		discordgo.InteractionPing:                           "other",
	} {
		if got := interactionKind(typ); got != want {
			t.Errorf("interactionKind(%v) = %q, want %q", typ, got, want)
		}
	}
}
