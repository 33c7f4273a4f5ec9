package discordtest

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch     = 0
	opHeartbeat    = 1
	opIdentify     = 2
	opResume       = 6
	opInvalid      = 9
	opHello        = 10
	opHeartbeatAck = 11
)

// Connect is one gateway session start the server saw.
type Connect struct {
	// Resume is set for a RESUME (op 6), unset for an IDENTIFY (op 2).
	Resume bool
	// SessionID and Seq are what a RESUME asked to continue.
	SessionID string
	Seq       int64
	// Intents and Compress are what an IDENTIFY asked for.
	Intents  int
	Compress bool
}

// gatewayState is the gateway part of a Server, guarded by its mu.
type gatewayState struct {
	conn       *gatewayConn
	sessionID  string
	seq        int64
	connects   []Connect
	heartbeats int
}

// gatewayConn is one websocket connection.
type gatewayConn struct {
	ws       *websocket.Conn
	wmu      sync.Mutex
	compress bool
}

// payload is a gateway message.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

// send writes a payload, zlib-compressed as a binary frame when the client
// asked for compression, as Discord does.
func (c *gatewayConn) send(op int, t string, seq *int64, d any) error {
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	msg, err := json.Marshal(payload{Op: op, D: raw, S: seq, T: t})
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.compress {
		return c.ws.WriteMessage(websocket.TextMessage, msg)
	}
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	z.Write(msg)
	z.Close()
	return c.ws.WriteMessage(websocket.BinaryMessage, buf.Bytes())
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// gatewayURL returns the websocket URL of the gateway.
func (s *Server) gatewayURL() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/gateway-ws/"
}

// serveGateway runs one gateway connection: HELLO, then IDENTIFY (answered
// with READY) or RESUME (answered with RESUMED), then heartbeats answered
// with ACKs until the connection closes.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gatewayConn{ws: ws}
	defer func() {
		ws.Close()
		s.mu.Lock()
		if s.gw.conn == c {
			s.gw.conn = nil
		}
		s.bump()
		s.mu.Unlock()
	}()
	if c.send(opHello, "", nil, map[string]any{"heartbeat_interval": s.heartbeatInterval.Milliseconds()}) != nil {
		return
	}
	var first struct {
		Op int `json:"op"`
		D  struct {
			Token     string `json:"token"`
			Intents   int    `json:"intents"`
			Compress  bool   `json:"compress"`
			SessionID string `json:"session_id"`
			Seq       int64  `json:"seq"`
		} `json:"d"`
	}
	if ws.ReadJSON(&first) != nil {
		return
	}
	token := strings.TrimPrefix(first.D.Token, "Bot ")
	if token != s.token {
		ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."))
		return
	}
	s.mu.Lock()
	switch first.Op {
	case opIdentify:
		s.gw.connects = append(s.gw.connects, Connect{Intents: first.D.Intents, Compress: first.D.Compress})
		s.gw.sessionID = s.newID()
		s.gw.seq++
		seq := s.gw.seq
		c.compress = first.D.Compress
		err = c.send(opDispatch, "READY", &seq, map[string]any{
			"v": 10, "session_id": s.gw.sessionID, "guilds": []any{}, "private_channels": []any{},
			"user":        map[string]any{"id": BotID, "username": "boardbot", "bot": true, "discriminator": "0"},
			"application": map[string]any{"id": AppID, "flags": 0},
		})
	case opResume:
		s.gw.connects = append(s.gw.connects, Connect{Resume: true, SessionID: first.D.SessionID, Seq: first.D.Seq})
		if first.D.SessionID != s.gw.sessionID {
			err = c.send(opInvalid, "", nil, false)
			break
		}
		s.gw.seq++
		seq := s.gw.seq
		err = c.send(opDispatch, "RESUMED", &seq, map[string]any{})
	default:
		err = errors.New("first message is neither IDENTIFY nor RESUME")
	}
	if err == nil {
		s.gw.conn = c
	}
	s.bump()
	s.mu.Unlock()
	if err != nil {
		return
	}
	for {
		var p payload
		if ws.ReadJSON(&p) != nil {
			return
		}
		if p.Op == opHeartbeat {
			s.mu.Lock()
			s.gw.heartbeats++
			s.bump()
			s.mu.Unlock()
			if c.send(opHeartbeatAck, "", nil, nil) != nil {
				return
			}
		}
	}
}

// ErrNotConnected is returned when an event is dispatched while no client
// is connected to the gateway.
var ErrNotConnected = errors.New("discordtest: no client connected to the gateway")

// Dispatch sends a gateway event (op 0) of type t with data d to the
// connected client.
func (s *Server) Dispatch(t string, d any) error {
	s.mu.Lock()
	c := s.gw.conn
	s.gw.seq++
	seq := s.gw.seq
	s.mu.Unlock()
	if c == nil {
		return ErrNotConnected
	}
	return c.send(opDispatch, t, &seq, d)
}

// Connected reports whether a client has a ready gateway session.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.conn != nil
}

// Connects returns the IDENTIFYs and RESUMEs so far, in order.
func (s *Server) Connects() []Connect {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Connect(nil), s.gw.connects...)
}

// Heartbeats returns how many heartbeats the server has acknowledged.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.heartbeats
}

// DropConnection closes the gateway connection without a close frame, as
// a network failure would; the client is expected to reconnect and
// RESUME.
func (s *Server) DropConnection() {
	s.mu.Lock()
	c := s.gw.conn
	s.gw.conn = nil
	s.bump()
	s.mu.Unlock()
	if c != nil {
		c.ws.Close()
	}
}
