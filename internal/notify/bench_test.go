package notify

import (
	"net/http"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// What the run's event stream pays per event with a webhook that never
// answers: Notify only queues (go test -bench Notify ./internal/notify/).
func BenchmarkNotifyWithAHangingWebhook(b *testing.B) {
	n := New(Options{Kinds: AllKinds(), Channels: []Channel{
		&Webhook{URL: "http://127.0.0.1:9/hook", Client: &http.Client{Transport: hangingTransport{}}, Timeout: time.Hour},
	}})
	defer n.Close(0)
	evs := haltedRun()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		n.Notify(evs[i%len(evs)])
	}
}

// The same for an event that makes no notification (most of a run's).
func BenchmarkNotifyIgnoredEvent(b *testing.B) {
	n := New(Options{Channels: []Channel{&Webhook{URL: "http://127.0.0.1:9/hook"}}})
	defer n.Close(0)
	e := event.Event{Kind: event.PhaseStarted, PhaseID: "1"}
	b.ReportAllocs()
	for range b.N {
		n.Notify(e)
	}
}
