// Package record is where a run's truth changes: the Recorder writes every
// change of a phase or of the run to its state file at once (one named
// method per change of an attempt, attemptstate.go; of a review hold,
// reviewstate.go), emits the events and tells the history.
package record

import (
	"fmt"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Recorder is the single place where the run's truth changes: every update
// of a phase or of the run is written to its state file at once, and every
// event goes to the execution log and to the sink, in that order.
type Recorder struct {
	store *state.Store
	sink  event.Sink
	now   func() time.Time

	// History, when set, is told of every attempt's end and of the run's
	// end (package history); written once before the run starts.
	History historyHook

	mu     sync.Mutex // guards everything below
	run    *state.Run
	phases map[phaseid.ID]*state.Phase
	err    error // the first failed write; the run stops on it
}

// historyHook keeps the record across runs (history.Observer). The recorder
// calls it under its lock, right after the state file is written.
type historyHook interface {
	AttemptEnded(run state.Run, p state.Phase)
	// RunEnded returns a line for the summary, or "".
	RunEnded(run state.Run, phases []state.Phase) string
}

func New(store *state.Store, sink event.Sink, now func() time.Time, run *state.Run, phases map[phaseid.ID]*state.Phase) *Recorder {
	if sink == nil {
		sink = event.Discard
	}
	return &Recorder{store: store, sink: sink, now: now, run: run, phases: phases}
}

// Phase applies f to the phase's state and writes the phase file.
func (r *Recorder) Phase(id phaseid.ID, f func(p *state.Phase)) {
	r.PhaseIf(id, func(p *state.Phase) bool { f(p); return true })
}

// PhaseIf is phase for an update that may change nothing: f reports
// whether it changed the state, and the file is written only then.
func (r *Recorder) PhaseIf(id phaseid.ID, f func(p *state.Phase) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.phases[id]
	before := lastOutcome(p)
	if !f(p) {
		return
	}
	if err := r.store.SavePhase(p); err != nil && r.err == nil {
		r.err = fmt.Errorf("writing state of phase %s: %w", p.DisplayID, err)
	}
	if r.History != nil && attemptEnded(before, p) {
		r.History.AttemptEnded(*r.run, *p)
	}
}

// PhaseEach applies f to the state of each phase of ids and writes their
// files together (state.SavePhases): a halt may block thousands of phases.
func (r *Recorder) PhaseEach(ids []phaseid.ID, f func(id phaseid.ID, p *state.Phase)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := make([]*state.Phase, len(ids))
	before := make([]string, len(ids))
	for i, id := range ids {
		list[i] = r.phases[id]
		before[i] = lastOutcome(list[i])
		f(id, list[i])
	}
	if err := r.store.SavePhases(list); err != nil && r.err == nil {
		r.err = fmt.Errorf("writing state of phases: %w", err)
	}
	for i, p := range list {
		if r.History != nil && attemptEnded(before[i], p) {
			r.History.AttemptEnded(*r.run, *p)
		}
	}
}

// Get returns a copy of the phase's state.
func (r *Recorder) Get(id phaseid.ID) state.Phase {
	r.mu.Lock()
	defer r.mu.Unlock()
	return *r.phases[id]
}

// UpdateRun applies f to run.json's content and writes it.
func (r *Recorder) UpdateRun(f func(run *state.Run)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	wasRunning := r.run.Status == state.RunRunning
	f(r.run)
	r.run.Updated = r.now().UTC()
	r.historyRunEnd(wasRunning)
	if err := r.store.SaveRun(r.run); err != nil && r.err == nil {
		r.err = fmt.Errorf("writing run state: %w", err)
	}
}

func (r *Recorder) RunCopy() state.Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return *r.run
}

// outputInterest is what the run's consumers show of output lines.
func (r *Recorder) outputInterest() event.OutputInterest { return event.InterestOf(r.sink) }

// LineMode is outputInterest for proc: which lines of a read of a
// process's output become PhaseOutput events. Output lines are not in the
// execution log (the attempt logs have them), so a line nobody shows is
// not worth a string and an event.
func (r *Recorder) LineMode() proc.LineMode {
	switch r.outputInterest() {
	case event.OutputNone:
		return proc.LinesNone
	case event.OutputLatest:
		return proc.LinesLast
	}
	return proc.LinesAll
}

// Emit stamps the event, logs it and hands it to the sink.
func (r *Recorder) Emit(e event.Event) {
	if e.Time.IsZero() {
		e.Time = r.now()
	}
	if e.Kind != event.PhaseOutput {
		if line := event.Describe(e); line != "" {
			if err := r.store.AppendEvent(state.FormatLogLine(e.Time, line)); err != nil {
				r.mu.Lock()
				if r.err == nil {
					r.err = fmt.Errorf("writing the execution log: %w", err)
				}
				r.mu.Unlock()
			}
		}
	}
	r.sink.Emit(e)
}

// Failed returns the first state write error, if any.
func (r *Recorder) Failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Usage returns the run's usage so far: the sum over every phase's
// attempts, nil when no agent reported any.
func (r *Recorder) Usage() *state.Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	var sum *state.Usage
	for _, p := range r.phases {
		sum = sum.Add(p.TotalUsage())
	}
	return sum
}

// AttemptUsage is the usage of the phase's latest attempt.
func (r *Recorder) AttemptUsage(id phaseid.ID) *state.Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p := r.phases[id]; p != nil && len(p.Attempts) > 0 {
		return p.Attempts[len(p.Attempts)-1].Usage
	}
	return nil
}
