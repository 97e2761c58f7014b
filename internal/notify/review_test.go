package notify

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// A phase awaiting review needs its person: it is a notification by
// default, naming the command that shows and decides it.
func TestAwaitingReviewNotifies(t *testing.T) {
	t.Parallel()
	require.Contains(t, DefaultKinds(), AwaitingReview)
	var tr tracker
	d, ok := tr.document(event.Event{Kind: event.PhaseAwaitingReview, PhaseID: "2a", DisplayID: "2-A",
		Line: "review it with: autobuild review 2-A"}, time.Hour, time.Now())
	require.True(t, ok)
	require.Equal(t, AwaitingReview, d.Notification)
	require.Equal(t, "autobuild: phase 2-A awaits your review: autobuild review 2-A (--approve, or --reject --note TEXT)", d.Text)
	seq := Alert(DefaultKinds(), func(string) string { return "" })(event.Event{Kind: event.PhaseAwaitingReview, PhaseID: "2a"})
	require.NotEmpty(t, seq, "the UI rings and raises an OSC 9 notification")
}
