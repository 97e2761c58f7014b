package notify

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// receiver is a webhook on 127.0.0.1 that keeps every body it gets.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.bodies = append(r.bodies, b)
		r.mu.Unlock()
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) docs(t *testing.T) []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, b := range r.bodies {
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		out = append(out, m)
	}
	return out
}

var t0 = time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)

// haltedRun is the events of a run whose phase 2A failed twice.
func haltedRun() []event.Event {
	rep := &failreport.Report{Type: failreport.TestFailure, Message: "TestParse failed", Attempt: 2}
	return []event.Event{
		{Kind: event.RunStarted, Time: t0, Line: "plan.md: 2 phases"},
		{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2},
		{Kind: event.PhaseCompleted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2},
		{Kind: event.PhaseIntegrated, Time: t0, PhaseID: "1", DisplayID: "1", Commit: &state.Commit{SHA: "abc1234", Message: "feat: one"}},
		{Kind: event.PhaseFailed, Time: t0, PhaseID: "2a", DisplayID: "2-A", Attempt: 1, MaxAttempts: 2, Failure: rep},
		{Kind: event.PhaseFailed, Time: t0, PhaseID: "2a", DisplayID: "2-A", Attempt: 2, MaxAttempts: 2, Failure: rep},
		{Kind: event.RunHalted, Time: t0, Line: "Phase 2-A failed after retry (test_failure)", PhaseID: "2a", DisplayID: "2-A",
			Failure: rep, DurationSeconds: 95, Usage: &state.Usage{InputTokens: 10, CostUSD: 1.25}},
	}
}

func completeRun() []event.Event {
	return []event.Event{
		{Kind: event.RunStarted, Time: t0},
		{Kind: event.PhaseIntegrated, Time: t0, PhaseID: "1", Commit: &state.Commit{SHA: "abc1234"}},
		{Kind: event.PhaseIntegrated, Time: t0, PhaseID: "2", Commit: &state.Commit{SHA: "def5678"}},
		{Kind: event.PhaseIntegrated, Time: t0, PhaseID: "3", Commit: &state.Commit{}},
		{Kind: event.RunComplete, Time: t0, Line: "all phases complete", DurationSeconds: 3725, Usage: &state.Usage{CostUSD: 2.5}},
	}
}

func feed(n *Notifier, evs []event.Event) {
	ch := make(chan event.Event, len(evs))
	for _, e := range evs {
		ch <- e
	}
	close(ch)
	n.Consume(ch)
}

// A halt makes exactly one document, of the versioned schema: the --json
// event's fields, the text Slack shows, the failure, the phase and the
// resume command.
func TestWebhookGetsOneHaltedDocument(t *testing.T) {
	t.Parallel()
	r := newReceiver(t)
	n := New(Options{Channels: []Channel{&Webhook{URL: r.srv.URL + "/hooks/T0/secret"}}, Plan: "plan.md", Dir: "/src/app",
		Resume: func(Document) string { return "autobuild plan.md --resume" }, Now: func() time.Time { return t0 }})
	feed(n, haltedRun())
	require.Zero(t, n.Close(10*time.Second))
	docs := r.docs(t)
	require.Len(t, docs, 1, "one document for the halt; failed attempts are off by default")
	d := docs[0]
	require.EqualValues(t, SchemaVersion, d["schema_version"])
	require.Equal(t, "halted", d["notification"])
	require.Equal(t, "run_halted", d["event"], "the --json event's own fields")
	require.Equal(t, t0.Format(time.RFC3339), d["time"])
	require.Equal(t, "2a", d["phase_id"])
	require.Equal(t, "2-A", d["display_id"])
	require.Equal(t, "test_failure", d["failure"].(map[string]any)["type"])
	require.Equal(t, "autobuild plan.md --resume", d["resume_command"])
	require.Equal(t, "plan.md", d["plan"])
	require.Equal(t, 1.25, d["cost_usd"])
	require.Equal(t, "autobuild halted: phase 2-A failed with test_failure. Phase 2-A failed after retry (test_failure) Resume: autobuild plan.md --resume", d["text"])
	for _, key := range []string{"schema_version", "notification", "text", "event", "time"} {
		require.Contains(t, d, key)
	}
}

// A complete run makes one document with its wall time, cost and commits.
func TestWebhookGetsOneCompleteDocument(t *testing.T) {
	t.Parallel()
	r := newReceiver(t)
	n := New(Options{Channels: []Channel{&Webhook{URL: r.srv.URL}}})
	feed(n, completeRun())
	require.Zero(t, n.Close(10*time.Second))
	docs := r.docs(t)
	require.Len(t, docs, 1)
	require.Equal(t, "complete", docs[0]["notification"])
	require.EqualValues(t, 2, docs[0]["commits"], "phases that landed a commit")
	require.Equal(t, 3725.0, docs[0]["duration_seconds"])
	require.Equal(t, "autobuild complete in 1h2m5s: all phases complete, 2 commits, $2.50", docs[0]["text"])
}

// A command gets the same JSON on its standard input, and its kind in
// $AUTOBUILD_NOTIFICATION.
func TestCommandGetsTheSameJSON(t *testing.T) {
	t.Parallel()
	r := newReceiver(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "doc.json")
	n := New(Options{Channels: []Channel{
		&Webhook{URL: r.srv.URL},
		&Command{Line: `cat > doc.json; echo "$AUTOBUILD_NOTIFICATION" > doc.json.kind`, Dir: dir},
	}})
	feed(n, haltedRun())
	require.Zero(t, n.Close(10*time.Second))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	r.mu.Lock()
	require.Len(t, r.bodies, 1)
	require.Equal(t, string(r.bodies[0])+"\n", string(got))
	r.mu.Unlock()
	kind, err := os.ReadFile(out + ".kind")
	require.NoError(t, err)
	require.Equal(t, "halted\n", string(kind))
}

// hangingTransport never answers: a webhook that is slow past all
// patience, inside a synctest bubble.
type hangingTransport struct{}

func (hangingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	<-req.Context().Done()
	return nil, req.Context().Err()
}

// refusingTransport is a receiver that is down.
type refusingTransport struct{ tries *int }

func (r refusingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	*r.tries++
	return nil, errors.New("connect: connection refused")
}

// A receiver that is slow or down delays nothing: every event is taken at
// once, the run's events flow on, and Close gives up after its grace.
func TestSlowOrDownReceiverDelaysNothing(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		tries := 0
		var errs strings.Builder
		n := New(Options{Errors: &errs, Kinds: AllKinds(), Channels: []Channel{
			&Webhook{URL: "http://127.0.0.1:9/slow", Client: &http.Client{Transport: hangingTransport{}}, Timeout: time.Hour},
			&Webhook{URL: "http://127.0.0.1:9/down/secret-token", Client: &http.Client{Transport: refusingTransport{&tries}}},
		}})
		start := time.Now()
		for range 100 {
			feed(n, haltedRun())
		}
		require.Zero(t, time.Since(start), "notifying took no time at all")
		left := n.Close(20 * time.Second)
		require.Equal(t, 20*time.Second, time.Since(start), "Close waits its grace, no more")
		require.Equal(t, 3, tries, "the down receiver was tried at 0 s, 1 s and 6 s; the next try, 30 s later, was past the grace")
		require.Equal(t, 2*300, left, "none of the 300 documents got through on either channel: dropped from a full queue (64 wait), or cut off at Close")
		require.NotContains(t, errs.String(), "secret-token", "the URL is redacted in errors")
	})
}

// A delivery that fails for good is said once, with the URL redacted.
func TestRefusedDeliveryIsReportedRedacted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusForbidden) }))
	defer srv.Close()
	var errs strings.Builder
	n := New(Options{Errors: &errs, Channels: []Channel{&Webhook{URL: srv.URL + "/T0/B0/secret-token", Backoff: []time.Duration{time.Millisecond}}}})
	feed(n, completeRun())
	require.Equal(t, 1, n.Close(10*time.Second))
	require.Contains(t, errs.String(), "answered 403 Forbidden")
	require.Contains(t, errs.String(), "2 tries")
	require.NotContains(t, errs.String(), "secret-token")
	require.Equal(t, []string{"webhook " + strings.TrimSuffix(srv.URL, "") + "/…"}, n.Names())
}

func TestRedact(t *testing.T) {
	t.Parallel()
	require.Equal(t, "https://hooks.slack.com/…", Redact("https://hooks.slack.com/services/T0/B0/XYZ"))
	require.Equal(t, "https://example.com/…", Redact("https://user:pw@example.com/?token=1"))
	require.Equal(t, "https://example.com", Redact("https://example.com"))
	require.Equal(t, "(redacted)", Redact("not a url secret"))
}

// A long usage-limit wait notifies once (the wait's repeated events do
// not), a short one not at all; failed attempts only when asked for.
func TestLimitWaitAndAttemptFailed(t *testing.T) {
	t.Parallel()
	n := New(Options{Kinds: AllKinds(), LimitWait: 30 * time.Minute, Now: func() time.Time { return t0 }})
	defer n.Close(time.Second)
	long, short := t0.Add(2*time.Hour), t0.Add(10*time.Minute)
	wait := event.Event{Kind: event.PhaseWaiting, PhaseID: "2", Line: "usage limit: claude resumes at 04:00", Until: &long}
	d, ok := n.Document(wait)
	require.True(t, ok)
	require.Equal(t, LimitWait, d.Notification)
	require.Contains(t, d.Text, "in 2h0m0s")
	_, ok = n.Document(wait)
	require.False(t, ok, "the wait's later events do not notify again")
	wait.Until = &short
	_, ok = n.Document(wait)
	require.False(t, ok, "shorter than the threshold")
	d, ok = n.Document(haltedRun()[4])
	require.True(t, ok)
	require.Equal(t, AttemptFailed, d.Notification)

	plain := New(Options{})
	defer plain.Close(time.Second)
	_, ok = plain.Document(haltedRun()[4])
	require.False(t, ok, "failed attempts are off by default")
}

// The terminal's sequence: a bell and OSC 9, or OSC 777 where the
// terminal takes it; an agent's escape in the text cannot end it early.
func TestSequence(t *testing.T) {
	t.Parallel()
	d := Document{Notification: Halted, Text: "autobuild halted: phase 1 said \x1b]52;c;ZXZpbA==\a; x"}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	seq := Sequence(d, env(nil))
	require.Equal(t, "\a\x1b]9;autobuild halted: phase 1 said , x\a", seq)
	seq = Sequence(d, env(map[string]string{"TERM": "rxvt-unicode-256color"}))
	require.Equal(t, "\a\x1b]777;notify;autobuild halted;autobuild halted: phase 1 said , x\a", seq)
}
