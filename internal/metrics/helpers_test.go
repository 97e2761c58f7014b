package metrics

import (
	"fmt"
	"time"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// builder writes a history the way the engine would, minute by minute.
type builder struct {
	recs    []history.Record
	minute  int
	run     string
	session string
	plan    string
}

func newBuilder() *builder { return &builder{plan: "plan.md"} }

func (b *builder) now() time.Time { b.minute++; return t0.Add(time.Duration(b.minute) * time.Minute) }

// newRun starts a run (and its first session).
func (b *builder) newRun() *builder {
	b.run = fmt.Sprintf("run-%02d", b.minute)
	b.session = b.run
	return b
}

// resume starts another session of the run.
func (b *builder) resume() *builder { b.session = fmt.Sprintf("%s+%02d", b.run, b.minute); return b }

// attempt options.
type opt func(*history.Record)

func agent(a string) opt { return func(r *history.Record) { r.Agent = a } }
func retry() opt         { return func(r *history.Record) { r.Retry, r.Attempt = true, 2 } }
func reassigned() opt {
	return func(r *history.Record) { r.Retry, r.Reassigned, r.Attempt = true, true, 2 }
}
func recovered(by string, secs float64) opt {
	return func(r *history.Record) { r.RecoveredBy, r.RecoverySeconds = by, secs }
}
func cost(in, out int64, usd float64) opt {
	return func(r *history.Record) {
		r.Usage = &state.Usage{Model: "m1", InputTokens: in, OutputTokens: out, CostUSD: usd}
		r.Model = "m1"
	}
}
func worker(w string) opt { return func(r *history.Record) { r.Worker = w } }
func msg(m string) opt    { return func(r *history.Record) { r.FailureMessage = m } }

func (b *builder) add(phase, outcome, typ string, opts ...opt) *builder {
	r := history.Record{V: 1, Kind: history.KindAttempt, Time: b.now(), RunID: b.run, Session: b.session,
		PlanPath: b.plan, PhaseID: phaseid.ID(phase), DisplayID: phaseid.Display(phase), PhaseName: "Phase " + phase, Attempt: 1,
		Agent: "claude", Outcome: outcome, FailureType: typ, Duration: 60}
	if typ != "" && r.FailureMessage == "" {
		r.FailureMessage = typ + " in " + phase
	}
	for _, o := range opts {
		o(&r)
	}
	b.recs = append(b.recs, r)
	return b
}

func (b *builder) ok(phase string, opts ...opt) *builder {
	return b.add(phase, "complete", "", opts...)
}
func (b *builder) fail(phase, typ string, opts ...opt) *builder {
	return b.add(phase, "failed", typ, opts...)
}
func (b *builder) interrupted(phase string) *builder { return b.add(phase, "interrupted", "") }

func (b *builder) end(status string, failed ...phaseid.Display) *builder {
	b.recs = append(b.recs, history.Record{V: 1, Kind: history.KindRunEnd, Time: b.now(), RunID: b.run,
		Session: b.session, PlanPath: b.plan, Status: status, FailedPhases: failed})
	return b
}

func f(v float64) *float64 { return &v }
