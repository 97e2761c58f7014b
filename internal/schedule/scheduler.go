// Package schedule decides what runs when: the Scheduler walks the plan's
// batches (or, under --schedule=eager, starts each phase once its
// dependencies landed: eager.go), keeps --max-parallel (fewer while an
// agent's quota runs low: quota.go), picks the agent and waits out or
// moves past providers' limits (limits.go), enforces the budgets
// (budget.go), gives a held phase's slot away (reviewslots.go), and
// settles each attempt: retry, halt, or block dependents (upstream.go). It
// sees attempts only through the Runner interface.
package schedule

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// MaxAttempts is the single-retry rule: one attempt and exactly one retry.
const MaxAttempts = 2

// AttemptRequest is one attempt the scheduler asks the runner to make.
type AttemptRequest struct {
	Phase  *plan.Phase
	Number int // 1 or 2 within this run
	// Siblings are the phases of its group still to finish; Landed those
	// of its group already complete (a retry's siblings that landed).
	Siblings, Landed []*plan.Phase
	Agent            agent.Agent
	Timeout          time.Duration
	// Previous holds the failures of this phase's earlier attempts, oldest
	// first, across resumes.
	Previous []failreport.Report
	// Session, after a context_exhausted attempt, is the agent CLI's
	// session to continue; Compact asks a fresh session for a prompt that
	// summarizes the work done (see continuation).
	Session string
	Compact bool
	// Steer is a person's note that stopped the attempt before this one
	// (engine/steer.go): this attempt continues with it, without using up the
	// retry; Session is then the stopped session, when its CLI can go on.
	Steer string
	// Held, when set, is called once the phase waits for a person's
	// review: the scheduler gives its slot to another phase meanwhile.
	Held func()
	// Run counts the runs of the phase's agent in this run of autobuild,
	// repeats after a limit included (agent.EnvAgentRun).
	Run int
}

// AttemptResult is how an attempt ended.
type AttemptResult struct {
	// Outcome is state.OutcomeComplete, OutcomeFailed or OutcomeInterrupted.
	Outcome string
	Report  *failreport.Report // set when Outcome is failed
	// Halt, when set, halts the run with this reason: a limit that lifts
	// too late to wait for.
	Halt string
}

// Runner makes attempts. The real one runs agents and gates in worktrees; the
// scheduler's tests use a fake. It records the attempt's own state and events
// (started, output, gates, failed, completed, integrated).
type Runner interface {
	Attempt(ctx context.Context, req AttemptRequest) AttemptResult
}

// Scheduler walks the plan's batches: phases of a group run concurrently up
// to maxParallel, failed phases retry once after their running siblings have
// finished, and an unrecoverable failure halts the run: nothing new starts,
// running phases finish. Under the eager schedule (eager.go) there are no
// batches: a phase starts once its dependencies have landed.
type Scheduler struct {
	Plan        *plan.Plan
	Runner      Runner
	Rec         *record.Recorder
	MaxParallel int
	// Schedule is batches (the zero value runs them too) or eager.
	Schedule state.Schedule
	Timeout  time.Duration
	Agents   []agent.Agent
	// Backoff returns the wait before the n-th repeat (0-based) of a
	// rate-limited attempt; sleep waits for it or for ctx.
	Backoff func(n int) time.Duration
	Sleep   func(ctx context.Context, d time.Duration)
	Limits  LimitPolicy

	mu       sync.Mutex // guards the fields below
	Complete map[phaseid.ID]bool
	Failed   map[phaseid.ID]*failreport.Report
	halt     string // why the run halts; "" while it goes on
	// blocked holds each agent's provider limit (by agent name) until it
	// lifts.
	blocked map[string]block
	// runs counts each phase's agent runs in this run of autobuild.
	runs map[phaseid.ID]int
	// HaltReport is the failure the run halts for, the first one, and
	// haltPhase the phase it failed (nil for the run's budget).
	HaltReport *failreport.Report
	HaltPhase  *plan.Phase

	// Budget is the run's budgets (budget.go); attemptCtx, when set, is
	// the context attempts run in, ended by a hard budget stop.
	Budget     BudgetGuard
	attemptCtx context.Context
	// Quotas lowers the phases at once while an agent's quota is low
	// (quota.go); nil: --max-parallel always.
	Quotas *QuotaBook
	// frees gives back the slot of a phase that waits for review
	// (reviewslots.go), by phase.
	frees map[phaseid.ID]func()
}

// Execute runs the plan by the run's schedule and returns the run's final
// status and reason.
func (s *Scheduler) Execute(ctx context.Context) (state.RunStatus, string) {
	if s.Budget.Hard && s.Budget.Limits.Run > 0 {
		actx, stop := context.WithCancel(ctx)
		defer stop()
		s.attemptCtx, s.Budget.stop = actx, stop
	}
	if s.Schedule == state.ScheduleEager {
		s.runEager(ctx)
	} else {
		s.runBatches(ctx)
	}
	s.markUnrun()
	switch {
	case ctx.Err() != nil:
		return state.RunInterrupted, "interrupted (Ctrl-C or SIGTERM): running phases were stopped and will re-run on resume"
	case s.Rec.Failed() != nil:
		return state.RunHalted, s.Rec.Failed().Error()
	case s.halt != "":
		return state.RunHalted, s.halt
	}
	return state.RunComplete, "all phases complete"
}

// runBatches runs the batches one after another.
func (s *Scheduler) runBatches(ctx context.Context) {
	for _, b := range s.Plan.Batches() {
		if s.stopping(ctx) {
			break
		}
		var (
			todo []phaseid.Display
			ids  []phaseid.ID
		)
		for _, p := range b.Phases {
			if !s.isComplete(p.ID) {
				todo, ids = append(todo, p.DisplayID), append(ids, p.ID)
			}
		}
		if len(todo) == 0 {
			continue
		}
		s.Rec.Emit(event.Event{Kind: event.BatchStarted, Batch: b.Index, Phases: todo, PhaseIDs: ids})
		for _, g := range b.Groups {
			if s.stopping(ctx) {
				break
			}
			s.runGroup(ctx, g)
		}
	}
}

// runGroup runs the first attempts of a group's phases, then retries the
// retryable failures together once every first attempt has ended.
func (s *Scheduler) runGroup(ctx context.Context, group []*plan.Phase) {
	var phases []*plan.Phase
	for _, p := range group {
		if !s.isComplete(p.ID) {
			phases = append(phases, p)
		}
	}
	results := s.runAll(ctx, phases, phases, 1)
	if s.stopping(ctx) {
		return
	}
	var retry []*plan.Phase
	for _, p := range phases {
		if r, ok := results[p.ID]; ok && r.Outcome == state.OutcomeFailed {
			retry = append(retry, p)
		}
	}
	if len(retry) == 0 {
		return
	}
	s.runAll(ctx, retry, phases, 2) // each retry is announced as it starts (attempt)
}

// runAll starts one attempt per phase, at most maxParallel at a time, and
// waits for all of them. A phase still waiting for a slot when the run starts
// halting is not started.
func (s *Scheduler) runAll(ctx context.Context, phases, group []*plan.Phase, number int) map[phaseid.ID]AttemptResult {
	sem := make(chan struct{}, max(1, s.MaxParallel))
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results = map[phaseid.ID]AttemptResult{}
		// active counts the attempts started here and not ended; ended
		// wakes a start held back by a low quota (quota.go).
		active atomic.Int32
		ended  = make(chan struct{}, 1)
	)
	for _, p := range phases {
		acquired := false
		select {
		case sem <- struct{}{}:
			acquired = true
		case <-ctx.Done():
		}
		for int(active.Load()) >= s.parallelNow() && !s.stopping(ctx) {
			select {
			case <-ended:
			case <-s.Quotas.changes():
			case <-ctx.Done():
			}
		}
		if s.stopping(ctx) {
			if acquired {
				<-sem
			}
			break
		}
		wg.Add(1)
		active.Add(1)
		go func() {
			defer wg.Done()
			// The slot is given back when the attempt ends, or as soon
			// as the phase waits for review (reviewslots.go).
			free := sync.OnceFunc(func() {
				<-sem
				active.Add(-1)
				select {
				case ended <- struct{}{}:
				default:
				}
			})
			defer free()
			defer s.whileHeld(p.ID, free)()
			res := s.attempt(ctx, p, number, s.siblings(p, group, false), s.siblings(p, group, true))
			mu.Lock()
			results[p.ID] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// attempt makes one attempt and records what its end means for the run;
// siblings and landed are what its prompt names (attemptRequest).
// A rate-limited attempt is repeated without using up the retry: on another
// agent free of limits, or after waiting the limit out (afterLimit).
func (s *Scheduler) attempt(ctx context.Context, p *plan.Phase, number int, siblings, landed []*plan.Phase) AttemptResult {
	prev := s.previousFailures(p.ID)
	req := AttemptRequest{
		Phase:    p,
		Number:   number,
		Siblings: siblings,
		Landed:   landed,
		Agent:    s.agentFor(p.ID, number),
		Timeout:  s.Timeout,
		Previous: prev,
		Held:     s.heldHook(p.ID),
	}
	if number > 1 && len(prev) > 0 && prev[len(prev)-1].Type == failreport.Timeout {
		req.Timeout = 2 * s.Timeout
	}
	s.continuation(p.ID, &req)
	var res AttemptResult
	var waited time.Duration
	for repeat := 0; ; repeat++ {
		if b := s.overBudget(p); b != nil && !s.awaitsReview(p.ID) {
			res = s.refuse(p, number, b)
			break
		}
		if number > 1 && repeat == 0 {
			s.announceRetry(p, number)
		}
		req.Run = s.NextRun(p.ID)
		s.Budget.running.Add(1)
		res = s.Runner.Attempt(s.attemptContext(ctx), req)
		s.Budget.running.Add(-1)
		s.afterSpend()
		if res.Outcome != state.OutcomeFailed || res.Report.Type != failreport.RateLimited || ctx.Err() != nil {
			break
		}
		step := s.afterLimit(p, req.Agent, res.Report, repeat, waited)
		if step.halt != "" {
			res.Halt = step.halt
			break
		}
		if step.wait == 0 {
			s.Rec.Emit(event.Event{Kind: event.PhaseRetrying, PhaseID: p.ID, DisplayID: p.DisplayID,
				PhaseName: p.Name, Attempt: number, MaxAttempts: MaxAttempts, Agent: step.agent.Name,
				Line: fmt.Sprintf("%s is limited: moving to %s (does not use up the retry)", req.Agent.Name, step.agent.Name)})
		} else if !s.waitOut(ctx, p, number, step) {
			// Ctrl-C during the wait: no attempt follows; the phase
			// runs again on resume.
			s.Rec.Phase(p.ID, func(ps *state.Phase) { ps.Status = state.PhasePending })
			s.Rec.Emit(event.Event{Kind: event.PhaseInterrupted, PhaseID: p.ID, DisplayID: p.DisplayID,
				PhaseName: p.Name, Attempt: number, MaxAttempts: MaxAttempts,
				Line: "interrupted while waiting out a limit; the agent was not started again"})
			res = AttemptResult{Outcome: state.OutcomeInterrupted}
			break
		}
		if !step.usage {
			waited += step.wait
		}
		req.Agent = step.agent
		req.Previous = s.previousFailures(p.ID)
		s.continuation(p.ID, &req)
	}
	s.settle(p, number, res)
	return res
}

// announceRetry says that p's retry is starting: once the budget has let it
// start, never for a retry that a budget refuses or a halt keeps from
// starting.
func (s *Scheduler) announceRetry(p *plan.Phase, number int) {
	rep := s.failedReport(p.ID)
	s.Rec.Emit(event.Event{Kind: event.PhaseRetrying, PhaseID: p.ID, DisplayID: p.DisplayID,
		PhaseName: p.Name, Attempt: number, MaxAttempts: MaxAttempts,
		Line: "retrying after " + string(rep.Type) + " with the failure as context"})
}

// settle records an attempt's end in the scheduler's books and decides
// whether it halts the run.
func (s *Scheduler) settle(p *plan.Phase, number int, res AttemptResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch res.Outcome {
	case state.OutcomeComplete:
		s.Complete[p.ID] = true
		delete(s.Failed, p.ID)
	case outcomeNotStarted:
		// A budget kept the attempt from starting (budget.go): the run
		// halts, with the phase failed when it was its own budget.
		if s.halt == "" {
			s.halt, s.HaltReport = res.Halt, res.Report
			if s.Failed[p.ID] == res.Report {
				s.HaltPhase = p
			}
		}
	case state.OutcomeInterrupted:
		// A retry stopped by Ctrl-C leaves the phase pending, not failed:
		// nothing downstream is blocked by it, resume runs it again.
		delete(s.Failed, p.ID)
	case state.OutcomeFailed:
		s.Failed[p.ID] = res.Report
		r := res.Report
		var why string
		switch {
		case res.Halt != "":
			why = res.Halt
		case r.Retried(number, MaxAttempts):
			// Its retry comes (run below, or by the eager loop).
		case r.Circular:
			why = fmt.Sprintf("Phase %s: same fix tried again: needs a person (%s)", p.DisplayID, r.Type)
		case !r.Retryable:
			why = fmt.Sprintf("Phase %s failed with %s, which is not retryable", p.DisplayID, r.Type)
		case number >= MaxAttempts:
			why = fmt.Sprintf("Phase %s failed after retry (%s)", p.DisplayID, r.Type)
		}
		if why != "" {
			if s.halt == "" {
				s.halt = why
				s.HaltReport, s.HaltPhase = r, p
			} else if !strings.Contains(s.halt, "Phase "+string(p.DisplayID)+" ") {
				s.halt += "; " + why
			}
		}
	}
}

// markUnrun gives every phase that did not complete its final status:
// blocked (with the failed phases upstream of it) or pending. A phase
// whose file already says so is not written again: at a Ctrl-C of a large
// plan most phases are pending and were never touched. The blocked phases'
// files are written together, then their events go out.
func (s *Scheduler) markUnrun() {
	s.mu.Lock()
	failed := make(map[phaseid.ID]bool, len(s.Failed))
	for id := range s.Failed {
		failed[id] = true
	}
	complete := s.Complete
	s.mu.Unlock()
	up := newUpstream(s.Plan, failed)
	var blocked []*plan.Phase
	blockedBy := map[phaseid.ID][]phaseid.Display{}
	for _, p := range s.Plan.Phases {
		if complete[p.ID] || failed[p.ID] {
			continue
		}
		roots := up.failedRoots(p.ID)
		if len(roots) == 0 {
			s.Rec.PhaseIf(p.ID, func(ps *state.Phase) bool {
				changed := ps.BlockedBy != nil
				if ps.Status == state.PhaseRunning || ps.Status == state.PhaseBlocked {
					ps.Status, changed = state.PhasePending, true
				}
				ps.BlockedBy = nil
				return changed
			})
			continue
		}
		blocked = append(blocked, p)
		blockedBy[p.ID] = roots
	}
	ids := make([]phaseid.ID, len(blocked))
	for i, p := range blocked {
		ids[i] = p.ID
	}
	s.Rec.PhaseEach(ids, func(id phaseid.ID, ps *state.Phase) {
		ps.Status = state.PhaseBlocked
		ps.BlockedBy = blockedBy[id]
	})
	for _, p := range blocked {
		s.Rec.Emit(event.Event{Kind: event.PhaseBlocked, PhaseID: p.ID, DisplayID: p.DisplayID,
			PhaseName: p.Name, BlockedBy: blockedBy[p.ID]})
	}
}

func (s *Scheduler) stopping(ctx context.Context) bool {
	if ctx.Err() != nil || s.Rec.Failed() != nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.halt != ""
}

func (s *Scheduler) isComplete(id phaseid.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Complete[id]
}

// previousFailures lists the phase's failure reports of earlier attempts,
// across resumes, oldest first.
func (s *Scheduler) previousFailures(id phaseid.ID) []failreport.Report {
	ps := s.Rec.Get(id)
	var out []failreport.Report
	for _, a := range ps.Attempts {
		if a.Error != nil {
			out = append(out, *a.Error)
		}
	}
	return out
}

// siblings lists the other phases of p's group that are complete (landed)
// or not yet.
func (s *Scheduler) siblings(p *plan.Phase, group []*plan.Phase, landed bool) []*plan.Phase {
	var out []*plan.Phase
	for _, g := range group {
		if g.ID != p.ID && s.isComplete(g.ID) == landed {
			out = append(out, g)
		}
	}
	return out
}
