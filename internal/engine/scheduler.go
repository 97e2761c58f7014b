package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// MaxAttempts is the single-retry rule: one attempt and exactly one retry.
const MaxAttempts = 2

// maxRateLimitRepeats bounds how often a rate-limited attempt is repeated
// (after a backoff, without using up the retry) before it counts as failed.
const maxRateLimitRepeats = 3

// attemptRequest is one attempt the scheduler asks the runner to make.
type attemptRequest struct {
	Phase  *plan.Phase
	Number int // 1 or 2 within this run
	// Siblings are the phases of its group still to finish; Landed those
	// of its group already complete (a retry's siblings that landed).
	Siblings, Landed []*plan.Phase
	Agent            agent.Agent
	Timeout          time.Duration
	// Previous holds the failures of this phase's earlier attempts, oldest
	// first, across resumes.
	Previous []failure.Report
}

// attemptResult is how an attempt ended.
type attemptResult struct {
	// Outcome is state.OutcomeComplete, OutcomeFailed or OutcomeInterrupted.
	Outcome string
	Report  *failure.Report // set when Outcome is failed
}

// runner makes attempts. The real one runs agents and gates in worktrees; the
// scheduler's tests use a fake. It records the attempt's own state and events
// (started, output, gates, failed, completed, integrated).
type runner interface {
	attempt(ctx context.Context, req attemptRequest) attemptResult
}

// scheduler walks the plan's batches: phases of a group run concurrently up
// to maxParallel, failed phases retry once after their running siblings have
// finished, and an unrecoverable failure halts the run: nothing new starts,
// running phases finish.
type scheduler struct {
	plan        *plan.Plan
	runner      runner
	rec         *recorder
	maxParallel int
	timeout     time.Duration
	agents      []agent.Agent
	// backoff returns the wait before the n-th repeat (0-based) of a
	// rate-limited attempt; sleep waits for it or for ctx.
	backoff func(n int) time.Duration
	sleep   func(ctx context.Context, d time.Duration)

	mu       sync.Mutex // guards the fields below
	complete map[string]bool
	failed   map[string]*failure.Report
	halt     string // why the run halts; "" while it goes on
}

// execute runs every batch and returns the run's final status and reason.
func (s *scheduler) execute(ctx context.Context) (state.RunStatus, string) {
	for _, b := range s.plan.Batches() {
		if s.stopping(ctx) {
			break
		}
		var todo []string
		for _, p := range b.Phases {
			if !s.isComplete(p.ID) {
				todo = append(todo, p.DisplayID)
			}
		}
		if len(todo) == 0 {
			continue
		}
		s.rec.emit(event.Event{Kind: event.BatchStarted, Batch: b.Index, Phases: todo})
		for _, g := range b.Groups {
			if s.stopping(ctx) {
				break
			}
			s.runGroup(ctx, g)
		}
	}
	s.markUnrun()
	switch {
	case ctx.Err() != nil:
		return state.RunInterrupted, "interrupted (Ctrl-C or SIGTERM): running phases were stopped and will re-run on resume"
	case s.rec.failed() != nil:
		return state.RunHalted, s.rec.failed().Error()
	case s.halt != "":
		return state.RunHalted, s.halt
	}
	return state.RunComplete, "all phases complete"
}

// runGroup runs the first attempts of a group's phases, then retries the
// retryable failures together once every first attempt has ended.
func (s *scheduler) runGroup(ctx context.Context, group []*plan.Phase) {
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
	for _, p := range retry {
		rep := results[p.ID].Report
		s.rec.emit(event.Event{Kind: event.PhaseRetrying, PhaseID: p.ID, DisplayID: p.DisplayID,
			PhaseName: p.Name, Attempt: 2, MaxAttempts: MaxAttempts,
			Line: "retrying after " + string(rep.Type) + " with the failure as context"})
	}
	s.runAll(ctx, retry, phases, 2)
}

// runAll starts one attempt per phase, at most maxParallel at a time, and
// waits for all of them. A phase still waiting for a slot when the run starts
// halting is not started.
func (s *scheduler) runAll(ctx context.Context, phases, group []*plan.Phase, number int) map[string]attemptResult {
	sem := make(chan struct{}, max(1, s.maxParallel))
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results = map[string]attemptResult{}
	)
	for _, p := range phases {
		acquired := false
		select {
		case sem <- struct{}{}:
			acquired = true
		case <-ctx.Done():
		}
		if s.stopping(ctx) {
			if acquired {
				<-sem
			}
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res := s.attempt(ctx, p, group, number)
			mu.Lock()
			results[p.ID] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// attempt makes one attempt (repeating it after a backoff while it is rate
// limited) and records what its end means for the run.
func (s *scheduler) attempt(ctx context.Context, p *plan.Phase, group []*plan.Phase, number int) attemptResult {
	prev := s.previousFailures(p.ID)
	req := attemptRequest{
		Phase:    p,
		Number:   number,
		Siblings: s.siblings(p, group, false),
		Landed:   s.siblings(p, group, true),
		Agent:    s.agentFor(number),
		Timeout:  s.timeout,
		Previous: prev,
	}
	if number > 1 && len(prev) > 0 && prev[len(prev)-1].Type == failure.Timeout {
		req.Timeout = 2 * s.timeout
	}
	var res attemptResult
	for repeat := 0; ; repeat++ {
		res = s.runner.attempt(ctx, req)
		if res.Outcome != state.OutcomeFailed || res.Report.Type != failure.RateLimited ||
			repeat >= maxRateLimitRepeats || ctx.Err() != nil {
			break
		}
		wait := s.backoff(repeat)
		s.rec.emit(event.Event{Kind: event.PhaseRetrying, PhaseID: p.ID, DisplayID: p.DisplayID,
			PhaseName: p.Name, Attempt: number, MaxAttempts: MaxAttempts,
			Line: fmt.Sprintf("rate limited: trying again in %s (does not use up the retry)", wait)})
		s.sleep(ctx, wait)
		req.Previous = s.previousFailures(p.ID)
	}
	s.settle(p, number, res)
	return res
}

// settle records an attempt's end in the scheduler's books and decides
// whether it halts the run.
func (s *scheduler) settle(p *plan.Phase, number int, res attemptResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch res.Outcome {
	case state.OutcomeComplete:
		s.complete[p.ID] = true
		delete(s.failed, p.ID)
	case state.OutcomeInterrupted:
		// A retry stopped by Ctrl-C leaves the phase pending, not failed:
		// nothing downstream is blocked by it, resume runs it again.
		delete(s.failed, p.ID)
	case state.OutcomeFailed:
		s.failed[p.ID] = res.Report
		r := res.Report
		var why string
		switch {
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
			} else if !strings.Contains(s.halt, "Phase "+p.DisplayID+" ") {
				s.halt += "; " + why
			}
		}
	}
}

// markUnrun gives every phase that did not complete its final status:
// blocked (with the failed phases upstream of it) or pending.
func (s *scheduler) markUnrun() {
	s.mu.Lock()
	failed := make(map[string]bool, len(s.failed))
	for id := range s.failed {
		failed[id] = true
	}
	complete := s.complete
	s.mu.Unlock()
	for _, p := range s.plan.Phases {
		if complete[p.ID] || failed[p.ID] {
			continue
		}
		roots := failedUpstream(s.plan, p.ID, failed)
		if len(roots) == 0 {
			s.rec.phase(p.ID, func(ps *state.Phase) {
				if ps.Status == state.PhaseRunning || ps.Status == state.PhaseBlocked {
					ps.Status = state.PhasePending
				}
				ps.BlockedBy = nil
			})
			continue
		}
		s.rec.phase(p.ID, func(ps *state.Phase) {
			ps.Status = state.PhaseBlocked
			ps.BlockedBy = roots
		})
		s.rec.emit(event.Event{Kind: event.PhaseBlocked, PhaseID: p.ID, DisplayID: p.DisplayID,
			PhaseName: p.Name, BlockedBy: roots})
	}
}

// failedUpstream returns the display ids of the failed phases among id's
// transitive dependencies: only the root causes, as Terraform's walker does.
func failedUpstream(pl *plan.Plan, id string, failed map[string]bool) []string {
	var roots []string
	seen := map[string]bool{}
	var visit func(string)
	visit = func(cur string) {
		p := pl.Phase(cur)
		if p == nil {
			return
		}
		for _, dep := range p.DependsOn {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if failed[dep] {
				if d := pl.Phase(dep); d != nil {
					roots = append(roots, d.DisplayID)
				}
				continue
			}
			visit(dep)
		}
	}
	visit(id)
	slices.Sort(roots)
	return roots
}

func (s *scheduler) stopping(ctx context.Context) bool {
	if ctx.Err() != nil || s.rec.failed() != nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.halt != ""
}

func (s *scheduler) isComplete(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.complete[id]
}

// previousFailures lists the phase's failure reports of earlier attempts,
// across resumes, oldest first.
func (s *scheduler) previousFailures(id string) []failure.Report {
	ps := s.rec.get(id)
	var out []failure.Report
	for _, a := range ps.Attempts {
		if a.Error != nil {
			out = append(out, *a.Error)
		}
	}
	return out
}

// agentFor picks the agent of an attempt: the first one, and for a retry a
// different one than the agent that failed, when several were given.
func (s *scheduler) agentFor(number int) agent.Agent {
	if number == 1 || len(s.agents) == 1 {
		return s.agents[0]
	}
	return s.agents[1]
}

// siblings lists the other phases of p's group that are complete (landed)
// or not yet.
func (s *scheduler) siblings(p *plan.Phase, group []*plan.Phase, landed bool) []*plan.Phase {
	var out []*plan.Phase
	for _, g := range group {
		if g.ID != p.ID && s.isComplete(g.ID) == landed {
			out = append(out, g)
		}
	}
	return out
}
