package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// endpoint is where the server delivers interactions over HTTP.
type endpoint struct {
	url func() string
	key ed25519.PrivateKey
	now func() time.Time
}

// UseEndpoint makes the server deliver interactions to an Interactions
// Endpoint URL, as Discord does for a bot with one set, instead of the
// gateway: signed with key at now's time, to the URL url returns for each
// delivery (a load balancer's choice). The HTTP answer is taken as the
// interaction's callback.
func (s *Server) UseEndpoint(url func() string, key ed25519.PrivateKey, now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint = &endpoint{url: url, key: key, now: now}
}

// Sign returns the signature headers of body signed with key at t, as
// Discord sends them.
func Sign(key ed25519.PrivateKey, t time.Time, body []byte) http.Header {
	ts := strconv.FormatInt(t.Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	h := http.Header{}
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	h.Set("X-Signature-Timestamp", ts)
	h.Set("Content-Type", "application/json")
	return h
}

// PostSigned posts body to url with headers h and returns the status and
// the answer's body.
func PostSigned(url string, h http.Header, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// Event returns the JSON of the interaction with id as it was delivered,
// for a test to replay it.
func (s *Server) Event(id string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.interactions {
		if in.id == id {
			data, err := json.Marshal(in.event)
			return data, err == nil
		}
	}
	return nil, false
}

// deliverHTTP posts interaction in to the endpoint and takes the answer
// as its callback.
func (s *Server) deliverHTTP(ep *endpoint, in *interaction, ev map[string]any) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	type result struct {
		status int
		answer []byte
		err    error
	}
	got := make(chan result, 1)
	go func() {
		status, answer, err := PostSigned(ep.url(), Sign(ep.key, ep.now(), body), body)
		got <- result{status, answer, err}
	}()
	var r result
	select {
	case r = <-got:
	case <-in.expired:
		return fmt.Errorf("discordtest: interaction %s failed: no answer within the deadline", in.id)
	}
	status, answer, err := r.status, r.answer, r.err
	if err != nil {
		return fmt.Errorf("discordtest: deliver interaction %s: %w", in.id, err)
	}
	if status != http.StatusOK {
		return fmt.Errorf("discordtest: deliver interaction %s: status %d: %s", in.id, status, answer)
	}
	s.mu.Lock()
	code, res := s.callback(in.id, in.token, request{json: answer})
	if code < 300 {
		s.bump()
	}
	s.mu.Unlock()
	if code >= 300 {
		return fmt.Errorf("discordtest: interaction %s answered with %s: %d %v", in.id, answer, code, res)
	}
	return nil
}
