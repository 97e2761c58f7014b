// Package notify tells a person when a run needs them, and when it is
// done (docs/notify.md). It consumes the engine's event stream like the
// printers do, and the engine knows nothing of it. A Notifier turns the
// events that matter (a halt, a long usage-limit wait, a budget reached,
// the run complete, optionally every failed attempt) into one Document
// each, and hands it to its channels (a webhook, a command, the desktop)
// without ever blocking the run or failing it. The terminal's bell and
// OSC 9 notification are the TUI's (Sequence).
package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// SchemaVersion is the version of Document; it changes only when a field
// changes meaning or goes away (fields may be added).
const SchemaVersion = 1

// Kind names a notification.
type Kind string

// The notifications (docs/notify.md).
const (
	Halted        Kind = "halted"         // the run halted: a person is needed
	LimitWait     Kind = "limit_wait"     // a usage-limit wait longer than the threshold began
	BudgetReached Kind = "budget_reached" // a budget is reached: no new attempt starts
	Complete      Kind = "complete"       // every phase is complete
	AttemptFailed Kind = "attempt_failed" // an attempt failed (off unless asked for)
	// AwaitingReview: a phase's gates passed and it waits for a person's
	// decision (--review): the run needs them.
	AwaitingReview Kind = "awaiting_review"
)

// AllKinds lists every notification, for settings and docs.
func AllKinds() []Kind {
	return []Kind{Halted, LimitWait, BudgetReached, Complete, AttemptFailed, AwaitingReview}
}

// DefaultKinds are the notifications sent unless the settings name others.
func DefaultKinds() []Kind { return []Kind{Halted, LimitWait, BudgetReached, Complete, AwaitingReview} }

// Document is one notification: the fields of the --json event it comes
// from, plus what a person needs to act on it. Text is a one-paragraph
// message that Slack and Mattermost incoming webhooks show as is.
type Document struct {
	SchemaVersion int    `json:"schema_version"`
	Notification  Kind   `json:"notification"`
	Text          string `json:"text"`
	// Plan and Dir are the run's plan and the directory it runs in.
	Plan string `json:"plan,omitempty"`
	Dir  string `json:"dir,omitempty"`
	// ResumeCommand is the command that goes on after a halt.
	ResumeCommand string `json:"resume_command,omitempty"`
	// Commits counts the phases landed with a commit (complete).
	Commits int `json:"commits,omitempty"`
	// CostUSD is the run's spend so far, where it is known.
	CostUSD float64 `json:"cost_usd,omitempty"`
	event.Event
}

// tracker keeps what the documents need from earlier events.
type tracker struct {
	commits int
	// waits holds the limit waits already notified, by phase and reset.
	waits map[string]bool
}

// document turns an event into a notification, or reports false when the
// event is none. limitWait is the threshold of LimitWait.
func (t *tracker) document(e event.Event, limitWait time.Duration, now time.Time) (Document, bool) {
	switch e.Kind {
	case event.RunStarted:
		// A TUI's resume or fresh start is a new session: its commits
		// count from here.
		t.commits = 0
		return Document{}, false
	case event.PhaseIntegrated, event.PhaseSkipped:
		if e.Commit != nil && e.Commit.SHA != "" {
			t.commits++
		}
		return Document{}, false
	}
	d := Document{SchemaVersion: SchemaVersion, Event: e}
	if e.Usage != nil {
		d.CostUSD = e.Usage.CostUSD
	}
	if e.Budget != nil {
		d.CostUSD = e.Budget.SpentUSD
	}
	id := string(e.DisplayID.Or(e.PhaseID))
	switch e.Kind {
	case event.RunHalted:
		d.Notification = Halted
		d.Text = "autobuild halted: " + e.Line
		if e.Failure != nil && id != "" {
			d.Text = fmt.Sprintf("autobuild halted: phase %s failed with %s. %s", id, e.Failure.Type, e.Line)
		}
	case event.RunComplete:
		d.Notification = Complete
		d.Commits = t.commits
		d.Text = fmt.Sprintf("autobuild complete in %s: %s", wall(e.DurationSeconds), e.Line)
		if d.Commits > 0 {
			d.Text += fmt.Sprintf(", %d %s", d.Commits, human.Plural(d.Commits, "commit", "commits"))
		}
		if d.CostUSD > 0 {
			d.Text += ", " + state.Cost(d.CostUSD)
		}
	case event.BudgetReached:
		d.Notification = BudgetReached
		d.Text = "autobuild budget reached: " + e.Line
	case event.PhaseFailed:
		d.Notification = AttemptFailed
		what := "failed"
		if e.Failure != nil {
			what = "failed with " + string(e.Failure.Type)
			if e.Failure.Message != "" {
				what += ": " + e.Failure.Message
			}
		}
		d.Text = fmt.Sprintf("autobuild: phase %s %s (attempt %d/%d)", id, what, e.Attempt, e.MaxAttempts)
	case event.PhaseAwaitingReview:
		d.Notification = AwaitingReview
		d.Text = fmt.Sprintf("autobuild: phase %s awaits your review: autobuild review %s (--approve, or --reject --note TEXT)", id, id)
	case event.PhaseWaiting:
		if e.Until == nil || !strings.HasPrefix(e.Line, "usage limit") || e.Until.Sub(now) <= limitWait {
			return Document{}, false
		}
		key := id + "@" + e.Until.UTC().Format(time.RFC3339)
		if t.waits == nil {
			t.waits = map[string]bool{}
		}
		if t.waits[key] {
			return Document{}, false
		}
		t.waits[key] = true
		d.Notification = LimitWait
		d.Text = fmt.Sprintf("autobuild waits for a usage limit: phase %s runs again at %s (in %s)",
			id, e.Until.Local().Format("15:04 MST"), e.Until.Sub(now).Round(time.Minute))
	default:
		return Document{}, false
	}
	// The text carries a phase's or an agent's words: nothing in it may
	// drive a terminal or a chat's formatting beyond plain text.
	d.Text = sanitize.Line(d.Text)
	d.Line = sanitize.Line(d.Line)
	return d, true
}

func wall(seconds float64) string {
	return (time.Duration(seconds) * time.Second).Round(time.Second).String()
}
