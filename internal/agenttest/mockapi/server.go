package mockapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// API names the model API a server speaks, which is also the CLI that calls it.
type API string

// The APIs, by the CLI that calls each.
const (
	Claude API = "claude"
	Codex  API = "codex"
	Gemini API = "gemini"
)

// APIs lists every API.
func APIs() []API { return []API{Claude, Codex, Gemini} }

// Request is one HTTP request a server received.
type Request struct {
	API    API         `json:"api"`
	Time   time.Time   `json:"time"`
	Method string      `json:"method"`
	Path   string      `json:"path"` // with the query
	Header http.Header `json:"header"`
	Body   []byte      `json:"body"`
	// Reply is the index of the scripted reply this request got; -1 when it
	// was not a model request (or the script had run out), or the limit
	// refused it.
	Reply int `json:"reply"`
	// Limited is set for a model request the server's usage limit
	// (LimitUntil) refused.
	Limited bool `json:"limited,omitempty"`
}

// Server is a scripted model API on 127.0.0.1.
type Server struct {
	api API
	srv *httptest.Server

	mu       sync.Mutex // guards the fields below
	replies  []Reply
	next     int
	requests []Request
	limit    *usageLimit
}

// usageLimit is a subscription's usage limit in force until reset on the
// clock now.
type usageLimit struct {
	reply Reply
	reset time.Time
	now   func() time.Time
}

// LimitUntil puts a subscription's usage limit (f: UsageLimit, WeeklyLimit
// or OpusLimit) on the server until reset, read on the clock now (a test's
// injected clock): until then every model request is refused with the
// limit naming reset, as the real API refuses, and the script waits; from
// reset on, the script answers.
func (s *Server) LimitUntil(f Failure, reset time.Time, now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = &usageLimit{reply: Fail(f).Resetting(reset), reset: reset, now: now}
}

// New starts a server for api that answers the CLI's model requests with
// replies, in order; it is closed when the test ends. When the script runs
// out, a model request gets an HTTP 500 that says so.
func New(t testing.TB, api API, replies ...Reply) *Server {
	t.Helper()
	s := &Server{api: api, replies: replies}
	// httptest listens on 127.0.0.1 (or ::1): nothing leaves the machine.
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the server's base address, http://127.0.0.1:port.
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server before the test ends: the CLI then finds nothing
// listening at its URL, as when the API is unreachable.
func (s *Server) Close() { s.srv.Close() }

// API is the API the server speaks.
func (s *Server) API() API { return s.api }

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ModelRequests returns the requests that were answered from the script (or
// found it exhausted), leaving out side requests such as gemini's router.
func (s *Server) ModelRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Reply >= 0 || r.Limited {
			out = append(out, r)
		}
	}
	return out
}

// Used is how many scripted replies have been given.
func (s *Server) Used() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// serve logs the request and hands it to the API's handler.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{API: s.api, Time: time.Now(), Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body, Reply: -1}
	var h handler
	switch s.api {
	case Claude:
		h = claudeHandler{}
	case Codex:
		h = codexHandler{}
	case Gemini:
		h = geminiHandler{}
	case OpenAI:
		h = openaiHandler{}
	}
	if side, ok := h.(interface{ sideRequest([]byte) bool }); !h.isModelRequest(r) || (ok && side.sideRequest(body)) {
		s.log(req)
		h.serveOther(w, r, body)
		return
	}
	s.mu.Lock()
	if l := s.limit; l != nil && l.now().Before(l.reset) {
		req.Limited = true
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		writeFailure(w, h.failure(l.reply), 0)
		return
	}
	idx := s.next
	var reply Reply
	exhausted := idx >= len(s.replies)
	if !exhausted {
		reply = s.replies[idx]
		s.next++
	}
	req.Reply = idx
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if exhausted {
		http.Error(w, fmt.Sprintf("mockapi: request %d but the script has only %d replies", idx+1, len(s.replies)), http.StatusInternalServerError)
		return
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if reply.Failure != "" {
		f := h.failure(reply)
		if reply.Message != "" {
			setMessage(f.body, reply.Message)
		}
		writeFailure(w, f, reply.RetryAfter)
		return
	}
	h.serveReply(w, body, reply, idx)
}

func (s *Server) log(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
}

// handler is what differs between the APIs.
type handler interface {
	isModelRequest(r *http.Request) bool
	serveReply(w http.ResponseWriter, body []byte, reply Reply, idx int)
	serveOther(w http.ResponseWriter, r *http.Request, body []byte)
	failure(r Reply) failureResponse
}

// failureResponse is an API's HTTP error.
type failureResponse struct {
	status int
	body   any
	// header holds the response's own headers (claude's
	// anthropic-ratelimit-unified-*).
	header map[string]string
}

// setMessage replaces the error message in an API's error body.
func setMessage(body any, msg string) {
	m, ok := body.(map[string]any)
	if !ok {
		return
	}
	if e, ok := m["error"].(map[string]any); ok {
		e["message"] = msg
	}
}

func writeFailure(w http.ResponseWriter, f failureResponse, retryAfter time.Duration) {
	w.Header().Set("Content-Type", "application/json")
	for k, v := range f.header {
		w.Header().Set(k, v)
	}
	if f.status == http.StatusTooManyRequests && retryAfter > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(int(retryAfter.Seconds())))
	}
	w.WriteHeader(f.status)
	_ = json.NewEncoder(w).Encode(f.body)
}

// sse writes one server-sent event (an empty name writes a data-only event)
// and flushes it.
func sse(w http.ResponseWriter, name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(fmt.Sprintf("mockapi: encoding an event: %v", err))
	}
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}
