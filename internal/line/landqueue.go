package line

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// collectWindow is the least a landing that needs verifying waits for
// the landings of phases whose gates are running, to verify them together.
const collectWindow = 250 * time.Millisecond

// gatingCount counts the attempts whose agent ended well and that have
// not yet queued their landing or failed: their gates are running.
type gatingCount struct{ n atomic.Int32 }

// gatingTrack is one attempt's part of the count.
type gatingTrack struct {
	c             *gatingCount
	started, over atomic.Bool
}

func (c *gatingCount) Track() *gatingTrack { return &gatingTrack{c: c} }

func (t *gatingTrack) Start() {
	if !t.over.Load() && t.started.CompareAndSwap(false, true) {
		t.c.n.Add(1)
	}
}

func (t *gatingTrack) Done() {
	if t.over.CompareAndSwap(false, true) && t.started.Load() {
		t.c.n.Add(-1)
	}
}

// collect waits, before a group is verified, while other attempts are
// between their agent's end and their landing (their gates are running),
// for at most as long as the last run of the gates took (at least
// collectWindow): verifying them in this group costs less than a run of
// the gates of their own after it. Called with mu held.
func (in *Integrator) collect() {
	limit := max(collectWindow, in.Verifier.lastRun())
	deadline := time.Now().Add(limit)
	for in.Gating.n.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

// landing is one phase's commit waiting to land, and how its landing
// ended once it has (done): a report when it could not land, an error of
// autobuild's own, or the line's tip that holds it.
type landing struct {
	p       *plan.Phase
	base    string
	made    gitx.Made
	ch      gitx.Changes
	outside checkout.State

	done bool
	rep  *failreport.Report
	err  error
	tip  string
}

func (l *landing) settle(rep *failreport.Report, err error) { l.done, l.rep, l.err = true, rep, err }

// link is a landing and the commit that puts it on the line after the
// links before it.
type link struct {
	l   *landing
	tip string
}

// landQueue holds the landings that committed and wait for the
// integrator's lock. Its lock is a leaf.
type landQueue struct {
	mu      sync.Mutex
	waiting []*landing
}

func (in *Integrator) enqueue(l *landing) {
	in.queue.mu.Lock()
	in.queue.waiting = append(in.queue.waiting, l)
	in.queue.mu.Unlock()
}

func (in *Integrator) dequeue() []*landing {
	in.queue.mu.Lock()
	defer in.queue.mu.Unlock()
	out := in.queue.waiting
	in.queue.waiting = nil
	return out
}

// landQueued lands every landing queued so far, in the order they
// committed, and settles each. A landing whose commit was made on the
// line's tip lands as it is; the others are picked onto the line one after
// another, and every landing from the first that needs it to the last is
// verified together (verifyGroup): landings that are ready together cost
// one run of the gates. Called with mu held.
func (in *Integrator) landQueued(ctx context.Context) {
	batch := in.dequeue()
	for len(batch) > 0 {
		l := batch[0]
		if rep := in.admit(ctx, l); rep != nil {
			l.settle(rep, nil)
			batch = batch[1:]
			continue
		}
		tip, conflicted, err := in.pick(ctx, l.made)
		switch {
		case err != nil:
			l.settle(nil, fmt.Errorf("integrating phase %s: %w", l.p.DisplayID, err))
		case len(conflicted) > 0:
			l.settle(in.conflictReport(ctx, l.p, l.base, l.made.SHA, conflicted), nil)
		case in.Verifier == nil || l.made.Parent == in.tip || tip == in.tip:
			// Its gates ran on this very tree, or nothing of it is left to
			// land, or the run does not verify combinations.
			if in.Verifier != nil {
				in.Verifier.markGreen(ctx, tip)
			}
			if err := in.publish(ctx, []link{{l, tip}}); err != nil {
				l.settle(nil, err)
			}
		default:
			in.collect()
			batch = append(batch, in.dequeue()...)
			group, rest := in.chain(ctx, batch, tip)
			if len(group) > 0 {
				rest = append(in.verifyGroup(ctx, group), rest...)
			}
			batch = rest
			continue
		}
		batch = batch[1:]
	}
}

// chain picks batch's landings one onto the other, the first at first
// (already picked and admitted), and returns the chain and the landings
// left for later: those after one that does not pick cleanly onto the
// chain (its conflict is named once the chain has landed). When your
// commits move the line meanwhile (followUser), no chain is returned: the
// batch starts again on top of them. Called with mu held.
func (in *Integrator) chain(ctx context.Context, batch []*landing, first string) ([]link, []*landing) {
	group := []link{{batch[0], first}}
	at := first
	var rest []*landing
	for i := 1; i < len(batch); i++ {
		l := batch[i]
		before := in.tip
		if rep := in.admit(ctx, l); rep != nil {
			l.settle(rep, nil)
			continue
		}
		if in.tip != before {
			return nil, unsettled(batch)
		}
		tip, conflicted, err := in.repo.Pick(ctx, at, l.made.SHA, slices.Contains(in.tips, l.made.Parent))
		if err != nil || len(conflicted) > 0 || tip == at {
			rest = batch[i:]
			break
		}
		group = append(group, link{l, tip})
		at = tip
	}
	return group, rest
}

func unsettled(ls []*landing) []*landing {
	var out []*landing
	for _, l := range ls {
		if !l.done {
			out = append(out, l)
		}
	}
	return out
}
