package schedule

import (
	"math"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/record"
)

// Quota-aware parallelism (docs/limits.md#quota-headroom). An agent CLI
// that reports its provider's usage limit while it runs (claude's
// rate_limit_event) tells how much of the window is used. While a window
// that has not reset yet runs low, the run starts fewer phases at once:
// half of --max-parallel when it warns or 80 % is used, one at a time
// from 95 % or once refused, rather than send every phase into the limit
// together. The limit handling of limits.go stays for when it is hit.

// QuotaBook keeps each agent's latest quota and what it allows. Its lock
// is a leaf: nothing is called while it is held.
type QuotaBook struct {
	max int
	now func() time.Time
	rec *record.Recorder

	mu      sync.Mutex
	byAgent map[string]agent.Quota
	// changed is closed (and replaced) when a quota changes.
	changed chan struct{}
}

func NewQuotaBook(maxParallel int, now func() time.Time, rec *record.Recorder) *QuotaBook {
	return &QuotaBook{max: max(1, maxParallel), now: now, rec: rec, byAgent: map[string]agent.Quota{}, changed: make(chan struct{})}
}

// Note records an agent's quota, and says so in an AgentQuota event when
// it changed in a way that shows (status, window, reset, 5 % of use).
func (b *QuotaBook) Note(name string, q agent.Quota) {
	b.mu.Lock()
	old, had := b.byAgent[name]
	b.byAgent[name] = q
	limit := b.parallelLocked()
	same := had && old.Status == q.Status && old.Type == q.Type && old.ResetsAt.Equal(q.ResetsAt) &&
		bucket(old.Utilization) == bucket(q.Utilization)
	if !same {
		close(b.changed)
		b.changed = make(chan struct{})
	}
	b.mu.Unlock()
	if same || b.rec == nil {
		return
	}
	eq := &event.Quota{Type: q.Type, Status: q.Status, Parallel: limit, MaxParallel: b.max}
	if q.Utilization >= 0 {
		u := q.Utilization
		eq.Utilization = &u
	}
	if !q.ResetsAt.IsZero() {
		t := q.ResetsAt
		eq.ResetsAt = &t
	}
	b.rec.Emit(event.Event{Kind: event.AgentQuota, Agent: name, Quota: eq})
}

// bucket is utilization in steps of 5 %, -1 when unknown.
func bucket(u float64) int {
	if u < 0 {
		return -1
	}
	return int(math.Floor(u * 20))
}

// parallel is how many phases may run at once now.
func (b *QuotaBook) parallel() int {
	if b == nil {
		return math.MaxInt
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.parallelLocked()
}

func (b *QuotaBook) parallelLocked() int {
	limit := b.max
	now := b.now()
	for _, q := range b.byAgent {
		if !q.ResetsAt.IsZero() && !now.Before(q.ResetsAt) {
			continue // its window has reset since
		}
		switch {
		case q.VeryLow():
			limit = 1
		case q.Low():
			limit = min(limit, max(1, (b.max+1)/2))
		}
	}
	return limit
}

// changes is closed at the next change of a quota.
func (b *QuotaBook) changes() <-chan struct{} {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.changed
}

// parallelNow is how many phases the scheduler may run at once now:
// --max-parallel, fewer while a quota runs low.
func (s *Scheduler) parallelNow() int {
	return max(1, min(s.MaxParallel, s.Quotas.parallel()))
}
