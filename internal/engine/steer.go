package engine

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Steering (docs/running.md "Steering a running phase"): a person's note to
// a running phase, written to .autobuild/steer/<id>.json by the UI's M or
// `autobuild steer`, stops the running attempt gracefully (as a Ctrl-C
// stops it) and continues it with the note: in the agent CLI's own session
// when it can go on (claude, codex), else in a fresh session whose prompt
// ends with the note, on top of the work so far. The retry is not used up.

// steerWatch looks for a note to phase id while its attempt runs, and
// stops the attempt (cancel) when one comes.
type steerWatch struct {
	mu   sync.Mutex
	note *state.Steer
	done chan struct{}
}

// watchSteer starts watching for a note to phase id until stop is called;
// cancel stops the attempt.
func (r *phaseRunner) watchSteer(ctx context.Context, id phaseid.ID, since time.Time, cancel context.CancelFunc) (w *steerWatch, stop func()) {
	w = &steerWatch{done: make(chan struct{})}
	poll := r.cfg.ReviewPoll
	if poll <= 0 {
		poll = DefaultReviewPoll
	}
	wctx, end := context.WithCancel(ctx)
	go func() {
		defer close(w.done)
		tick := time.NewTicker(poll)
		defer tick.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-tick.C:
			}
			n, err := r.store.TakeSteer(id)
			if err != nil || n == nil {
				continue
			}
			if n.Sent.Before(since) {
				// Sent to an attempt that is over (before a crash, or
				// while the phase awaited review): not for this one.
				continue
			}
			w.mu.Lock()
			w.note = n
			w.mu.Unlock()
			cancel()
			return
		}
	}()
	return w, func() { end(); <-w.done }
}

// taken is the note that stopped the attempt, nil when none did.
func (w *steerWatch) taken() *state.Steer {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.note
}

// steered records an attempt stopped by a note, and continues the phase
// with it in a new attempt of the same number.
func (r *phaseRunner) steered(ctx context.Context, t *attemptTrack, n *state.Steer, session string) schedule.AttemptResult {
	p := t.p
	note := sanitize.Text(n.Note)
	now := r.cfg.Now()
	r.rec.Phase(p.ID, func(ps *state.Phase) {
		record.EndAttempt(ps, state.OutcomeInterrupted, t.started, now)
		ps.Notes = append(ps.Notes, state.Note{Time: now, Kind: "steer", Attempt: t.req.Number, Text: note})
	})
	r.rec.Emit(phaseEvent(event.PhaseSteered, p, t.req.Number, event.Event{Line: sanitize.Line(note),
		DurationSeconds: now.Sub(t.started).Seconds(), Usage: r.rec.AttemptUsage(p.ID)}))
	req := t.req
	req.Steer, req.Session, req.Compact = note, session, false
	if r.nextRun != nil {
		req.Run = r.nextRun(p.ID)
	}
	return r.Attempt(ctx, req)
}

// steerTooLate keeps a note that came as the attempt ended by itself: it
// is in the phase file and the history, and said, but stops nothing.
func (r *phaseRunner) steerTooLate(t *attemptTrack, n *state.Steer) {
	note := sanitize.Text(n.Note)
	r.rec.Phase(t.p.ID, func(ps *state.Phase) {
		ps.Notes = append(ps.Notes, state.Note{Time: r.cfg.Now(), Kind: "steer", Attempt: t.req.Number, Text: note})
	})
	r.rec.Emit(phaseEvent(event.PhaseSteered, t.p, t.req.Number, event.Event{
		Line: "too late, the attempt had ended: " + sanitize.Line(note)}))
}

// steerPrompt is the prompt and command line of an attempt that continues
// with a person's note: the CLI's own session when it can go on, else the
// full prompt with the note at its end.
func (r *phaseRunner) steerPrompt(in agent.PromptInput, req schedule.AttemptRequest, continues bool, log io.Writer) (string, []string) {
	if req.Session != "" && continues {
		if args := agent.ResumeArgs(req.Agent, req.Session); args != nil {
			fmt.Fprintf(log, "# autobuild: a person's note: continuing %s session %s with it\n", req.Agent.Name, req.Session)
			return agent.SteerPrompt(req.Steer), args
		}
	}
	fmt.Fprintf(log, "# autobuild: a person's note: a fresh session gets it with the work so far\n")
	return agent.WithSteer(agent.BuildPrompt(in), req.Steer), req.Agent.Args
}
