package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/review"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// reviewOptions are the flags of `autobuild review`.
type reviewOptions struct {
	approve, reject bool
	note            string
}

// newReview is `autobuild review [PHASE]`: the headless review of a run
// started with --review (docs/running.md "Reviewing before landing").
func newReview(s Streams) *cobra.Command {
	var o reviewOptions
	cmd := &cobra.Command{
		Use:   "review [PHASE]",
		Short: "Show a phase awaiting review (its diff, gates, agent's summary, usage), or approve or reject it",
		Long: `Show the change of a phase that awaits review in a run started with
--review=phase or --review=batch: its files, then its hunks, its gates'
results, the agent's summary, its usage and cost. --approve lands it; --reject
--note TEXT sends it back: the attempt fails with review_rejected, and the retry
gets the note as its context. It works from any terminal, while the run goes
on in another (--no-tui, CI) or after it stopped: a decision written while no
run is live is taken when the run resumes. Without PHASE, it shows every phase
awaiting review; a decision without PHASE decides the only one, or, under
--review=batch, every phase that waits.`,
		Example: "  autobuild review\n  autobuild review 2a --approve\n  autobuild review 2a --reject --note 'keep the old flag as an alias'",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReview(cmd.Context(), s, o, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.approve, "approve", false, "approve the change: the phase lands")
	f.BoolVar(&o.reject, "reject", false, "reject the change (with --note): the retry gets the note as its context")
	f.StringVar(&o.note, "note", "", "what the retry should change (with --reject)")
	return cmd
}

func runReview(ctx context.Context, s Streams, o reviewOptions, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	switch {
	case o.approve && o.reject:
		return usageErr("--approve and --reject: give one of them")
	case o.reject && strings.TrimSpace(o.note) == "":
		return usageErr("--reject needs --note TEXT: the note is what the retry is asked to change")
	case o.note != "" && !o.reject:
		return usageErr("--note goes with --reject")
	}
	// -C DIR (a flag of every command) reviews the run in DIR.
	store, snap, err := runSnapshot(".")
	if err != nil {
		return err
	}
	waiting := review.Awaiting(snap.Phases)
	if len(args) == 1 {
		p := review.Find(snap.Phases, args[0], plan.NormalizeID)
		if p == nil {
			return usageErr("no phase %q in the run", args[0])
		}
		if p.Review == nil || p.Status != state.PhaseAwaitingReview {
			return exitcode.Refusedf("phase %s does not await review (it is %s)", p.DisplayID.Or(p.PhaseID), p.Status)
		}
		waiting = []*state.Phase{p}
	}
	if len(waiting) == 0 {
		fmt.Fprintln(s.Out, "No phase awaits review.")
		return nil
	}
	if !o.approve && !o.reject {
		w := sanitize.Writer{W: s.Out}
		for i, p := range waiting {
			if i > 0 {
				fmt.Fprintln(w, strings.Repeat("─", 60))
			}
			r, err := review.Load(ctx, store.Root(), p)
			if err != nil {
				return &exitcode.Error{Code: exitcode.Refused, Err: err}
			}
			r.WriteText(w, time.Now())
		}
		return nil
	}
	if len(args) == 0 && snap.Run.Review == state.ReviewBatch {
		// A batch is decided together: the earliest batch that waits
		// (under the eager schedule several may).
		waiting = firstBatch(waiting)
	}
	if len(args) == 0 && len(waiting) > 1 && snap.Run.Review != state.ReviewBatch {
		ids := make([]string, len(waiting))
		for i, p := range waiting {
			ids[i] = string(p.DisplayID.Or(p.PhaseID))
		}
		return usageErr("%d phases await review (%s): name the one you decide", len(waiting), strings.Join(ids, ", "))
	}
	decision := state.DecisionApprove
	if o.reject {
		decision = state.DecisionReject
	}
	live := snap.Run.Status == state.RunRunning && snap.Run.PID > 0 && processAlive(snap.Run.PID)
	for _, p := range waiting {
		if err := review.Decide(store, p, decision, o.note, time.Now()); err != nil {
			return &exitcode.Error{Code: exitcode.Refused, Err: err}
		}
		fmt.Fprintln(s.Out, decided(p, decision, live))
	}
	return nil
}

// decided says what happens next to a phase just decided.
func decided(p *state.Phase, decision string, live bool) string {
	id := p.DisplayID.Or(p.PhaseID)
	what := "approved: it lands"
	if decision == state.DecisionReject {
		what = "rejected: its retry starts with your note"
	}
	if live {
		return fmt.Sprintf("Phase %s %s now.", id, what)
	}
	return fmt.Sprintf("Phase %s %s when the run resumes (no run is live now).", id, what)
}

// firstBatch is the phases of the earliest batch among phases.
func firstBatch(phases []*state.Phase) []*state.Phase {
	first := phases[0].Batch
	for _, p := range phases {
		first = min(first, p.Batch)
	}
	var out []*state.Phase
	for _, p := range phases {
		if p.Batch == first {
			out = append(out, p)
		}
	}
	return out
}

// awaitingReview lists the ids of the phases awaiting review, for status
// --json; nil when none does.
func awaitingReview(snap *state.Snapshot) []phaseid.ID {
	var ids []phaseid.ID
	for _, p := range review.Awaiting(snap.Phases) {
		ids = append(ids, p.PhaseID)
	}
	return ids
}
