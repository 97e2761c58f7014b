package schedule

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Provider limits. A rate-limited attempt never uses up the phase's retry:
// it is repeated, on another agent when one is free of limits, or after a
// wait: until a usage limit's reset (at most --wait-limit away), or after a
// back-off for a rate limit (at most RateLimitWaitCap in all per attempt).
const (
	// DefaultWaitLimit is --wait-limit's default: claude's and codex's usage
	// windows are five hours, so an overnight run waits out one of them.
	DefaultWaitLimit = 6 * time.Hour
	// RateLimitWaitCap bounds the back-offs of one attempt's rate limits;
	// past it the run halts (resume later).
	RateLimitWaitCap = 30 * time.Minute
	// waitTick is how often a long wait says it is still waiting: --no-tui
	// prints a line each time.
	waitTick = 5 * time.Minute
	// maxLimitRepeats stops a phase whose agent keeps reporting a limit
	// that needs no wait (a reset already past, switching agents that
	// refuse in turn): the back-off cap cannot.
	maxLimitRepeats = 50
)

// DefaultBackoff is the wait before the n-th repeat (0-based) of a
// rate-limited attempt: 15 s doubling to at most 5 minutes, before jitter.
// The agent CLIs have retried a few times by themselves already (see
// preset.RetryBudget).
func DefaultBackoff(n int) time.Duration { return min(15*time.Second<<min(n, 10), 5*time.Minute) }

// Jitter spreads a back-off over ±20 %, so parallel phases refused together
// do not come back together.
func Jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// LimitPolicy is how the scheduler waits out providers' limits.
type LimitPolicy struct {
	// WaitLimit is the longest wait for a usage limit's reset; 0 never
	// waits.
	WaitLimit time.Duration
	// RateCap bounds the total back-off of one attempt's rate limits.
	RateCap time.Duration
	// Jitter spreads a back-off (nil: none, for tests).
	Jitter func(time.Duration) time.Duration
	Now    func() time.Time
}

// limitStep is what to do after a rate-limited attempt: run it again with
// agent after wait, or halt the run (halt set).
type limitStep struct {
	agent agent.Agent
	wait  time.Duration
	// usage is set when the wait is for a usage limit's reset.
	usage bool
	halt  string
}

// NoteLimit reads a rate_limited report's limit: the exact reset the agent
// CLI's structured output gave (claude's rate_limit_event) first, else
// from the message and what the agent said: whether it is a usage limit,
// and when it lifts.
func NoteLimit(rep *failreport.Report, sig *failure.AgentSignal, said string, now time.Time) {
	if rep.Type != failreport.RateLimited {
		return
	}
	if sig != nil && !sig.ResetsAt.IsZero() {
		t := sig.ResetsAt
		rep.UsageLimit, rep.ResetsAt = true, &t
		return
	}
	l := failure.ReadLimit(rep.Message+"\n"+said, now)
	rep.UsageLimit = l.Usage
	if !l.ResetsAt.IsZero() {
		t := l.ResetsAt
		rep.ResetsAt = &t
	}
	rep.RetryAfterSeconds = l.RetryAfter.Seconds()
}

// afterLimit decides what follows a rate-limited attempt of p by a (its
// repeat-th, with waited spent in back-offs so far): it blocks a's provider
// until the limit lifts, moves the phase to another agent free of limits,
// or waits for the agent whose limit lifts first, within the caps.
func (s *Scheduler) afterLimit(p *plan.Phase, a agent.Agent, rep *failreport.Report, repeat int, waited time.Duration) limitStep {
	now := s.now()
	if repeat >= maxLimitRepeats {
		return limitStep{halt: fmt.Sprintf("Phase %s: still limited by %s after %d tries: resume later (autobuild --resume)",
			p.DisplayID, a.Name, repeat+1)}
	}
	b := block{until: now}
	if rep.ResetsAt != nil && rep.ResetsAt.After(now) {
		b = block{until: maxTime(*rep.ResetsAt, now), usage: true, name: failure.LimitName(rep.Message)}
	} else {
		wait := s.Backoff(repeat)
		if s.Limits.Jitter != nil {
			wait = s.Limits.Jitter(wait)
		}
		b.until = now.Add(max(wait, time.Duration(rep.RetryAfterSeconds*float64(time.Second))))
	}
	s.block(a.Name, b)
	next, nb := s.freestAgent(a, now)
	wait := max(nb.until.Sub(now), 0)
	if wait == 0 {
		return limitStep{agent: next}
	}
	if nb.usage {
		if s.Limits.WaitLimit <= 0 || wait > s.Limits.WaitLimit {
			return limitStep{halt: fmt.Sprintf("Phase %s: %s's %s resets at %s (in %s), past --wait-limit %s: "+
				"resume after the reset (autobuild --resume), or give a longer --wait-limit",
				p.DisplayID, next.Name, cmp.Or(nb.name, "usage limit"), localClock(nb.until, now), roundWait(wait), waitLimitText(s.Limits.WaitLimit))}
		}
		return limitStep{agent: next, wait: wait, usage: true}
	}
	if waited+wait > s.Limits.RateCap {
		return limitStep{halt: fmt.Sprintf("Phase %s: still rate limited by %s after %d tries and %s of back-off (the cap is %s): "+
			"resume later (autobuild --resume)", p.DisplayID, a.Name, repeat+1, roundWait(waited), roundWait(s.Limits.RateCap))}
	}
	return limitStep{agent: next, wait: wait}
}

// block is a provider's limit: refused until until; usage for a usage
// limit's reset rather than a rate limit's back-off, name the usage
// limit's ("weekly limit").
type block struct {
	until time.Time
	usage bool
	name  string
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// block records that agent name's provider refuses work until b.until.
func (s *Scheduler) block(name string, b block) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blocked == nil {
		s.blocked = map[string]block{}
	}
	if b.until.After(s.blocked[name].until) {
		s.blocked[name] = b
	}
}

// freestAgent is the agent to run next after a hit a limit: the first one
// after a (in --agent order, a itself last) that no limit blocks at now,
// or else the one whose limit lifts first, with its block.
func (s *Scheduler) freestAgent(a agent.Agent, now time.Time) (agent.Agent, block) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := 0
	for i, x := range s.Agents {
		if x.Name == a.Name {
			start = i + 1
			break
		}
	}
	best, bestBlock := a, s.blocked[a.Name]
	for k := range s.Agents {
		x := s.Agents[(start+k)%len(s.Agents)]
		b := s.blocked[x.Name]
		if !b.until.After(now) {
			return x, block{until: now}
		}
		if b.until.Before(bestBlock.until) {
			best, bestBlock = x, b
		}
	}
	return best, bestBlock
}

// agentFor picks the agent of an attempt: the first agent no limit blocks
// for a first attempt; for a retry, the next one after the agent whose
// attempt failed (when several were given), so a retry gets a fresh pair
// of eyes. Agents blocked by a limit are passed over while another is free.
func (s *Scheduler) agentFor(id phaseid.ID, number int) agent.Agent {
	now := s.now()
	last := s.Agents[len(s.Agents)-1] // so the search starts at the first
	if number > 1 {
		ps := s.Rec.Get(id)
		for i := len(ps.Attempts) - 1; i >= 0; i-- {
			if ps.Attempts[i].Outcome == state.OutcomeFailed {
				for _, x := range s.Agents {
					if x.Name == ps.Attempts[i].Agent {
						last = x
					}
				}
				break
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	start := 0
	for i, x := range s.Agents {
		if x.Name == last.Name {
			start = i + 1
			break
		}
	}
	for k := range s.Agents {
		x := s.Agents[(start+k)%len(s.Agents)]
		if !s.blocked[x.Name].until.After(now) {
			return x
		}
	}
	return s.Agents[start%len(s.Agents)]
}

// waitOut waits d before a rate-limited attempt of p runs again, saying so
// at the start and every few minutes. It returns false when ctx ended the
// wait (Ctrl-C): no attempt follows.
func (s *Scheduler) waitOut(ctx context.Context, p *plan.Phase, number int, step limitStep) bool {
	until := s.now().Add(step.wait)
	for {
		left := until.Sub(s.now())
		if left <= 0 {
			return true
		}
		var line string
		if step.usage {
			line = fmt.Sprintf("usage limit · resumes %s (in %s) with %s; does not use up the retry",
				localClock(until, s.now()), roundWait(left), step.agent.Name)
		} else {
			line = fmt.Sprintf("rate limited: trying again in %s with %s (does not use up the retry)", roundWait(left), step.agent.Name)
		}
		u := until
		s.Rec.Emit(event.Event{Kind: event.PhaseWaiting, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
			Attempt: number, MaxAttempts: MaxAttempts, Agent: step.agent.Name, Until: &u, Line: line})
		s.Sleep(ctx, min(left, waitTick))
		if ctx.Err() != nil {
			return false
		}
	}
}

// localClock shows t in local time: "03:10", or "Tue 25 Nov 03:10 CET"
// when it is not today.
func localClock(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return t.Format("15:04")
	}
	return t.Format("Mon 2 Jan 15:04 MST")
}

// roundWait shows a wait the way a person reads it: "3d5h", "1h42m", "32s".
func roundWait(d time.Duration) string {
	const day = 24 * time.Hour
	if d >= 2*day {
		// A weekly limit's reset: days and hours.
		h := int(d.Round(time.Hour) / time.Hour)
		if h%24 == 0 {
			return fmt.Sprintf("%dd", h/24)
		}
		return fmt.Sprintf("%dd%dh", h/24, h%24)
	}
	switch {
	case d >= time.Hour:
		return trimZero(d.Round(time.Minute))
	case d >= time.Minute:
		return trimZero(d.Round(time.Second))
	}
	return d.Round(100 * time.Millisecond).String()
}

func trimZero(d time.Duration) string {
	s := d.String()
	for _, suf := range []string{"0s", "0m"} {
		if len(s) > len(suf) && s[len(s)-len(suf):] == suf && s[len(s)-len(suf)-1] >= 'a' {
			s = s[:len(s)-len(suf)]
		}
	}
	return s
}

func waitLimitText(d time.Duration) string {
	if d <= 0 {
		return "0 (never wait)"
	}
	return roundWait(d)
}

// NextRun counts one more run of phase id's agent in this run of autobuild.
func (s *Scheduler) NextRun(id phaseid.ID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs == nil {
		s.runs = map[phaseid.ID]int{}
	}
	s.runs[id]++
	return s.runs[id]
}

// now is the scheduler's clock: the run's (Config.Now), or the system's
// for a scheduler built without one.
func (s *Scheduler) now() time.Time {
	if s.Limits.Now == nil {
		return time.Now()
	}
	return s.Limits.Now()
}

// Sleep waits for d or until ctx ends: a run's Scheduler.Sleep.
func Sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
