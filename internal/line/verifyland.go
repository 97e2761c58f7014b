package line

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/crashpoint"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// verification is the run's record of its verifications, made when missing.
func verification(r *state.Run) *state.LineVerification {
	if r.LineVerification == nil {
		r.LineVerification = &state.LineVerification{}
	}
	return r.LineVerification
}

// verifyGroup verifies a chain of landings picked one onto the other on
// top of the line (docs/running.md, "The line stays green"): one run of
// the gates on the last link's tree. When it passes they all land. When it
// fails, the culprit is the first link whose prefix fails: found by
// bisection, prefixes verified side by side (up to --max-parallel at a
// time, each in a verification worktree of its own), the good prefix
// lands, and the culprit gets its integration_conflict. When the line's
// tip fails the same gate alone, your commits broke it: no phase is
// blamed, each gets a branch_changed report. It returns the landings
// after the culprit, which are to land again on the new tip. Called with
// mu held.
func (in *Integrator) verifyGroup(ctx context.Context, group []link) []*landing {
	v := in.Verifier
	for i, k := range group {
		var with []string
		for j, o := range group {
			if j != i {
				with = append(with, string(o.l.p.DisplayID))
			}
		}
		with = append(shortNames(in.landedSince(k.l.base)), with...)
		in.rec.Emit(event.Event{Kind: event.PhaseVerifying, PhaseID: k.l.p.ID, DisplayID: k.l.p.DisplayID, PhaseName: k.l.p.Name,
			Line: "on top of " + cmp.Or(strings.Join(with, ", "), "the run's line "+clip.SHA(in.tip))})
	}
	crashpoint.At("verifying", group[0].l.p.ID)
	fail := func(err error) []*landing {
		for _, k := range group {
			k.l.settle(nil, fmt.Errorf("verifying phase %s on top of the run's line: %w", k.l.p.DisplayID, err))
		}
		return nil
	}
	n := len(group)
	vd, err := v.verify(ctx, group[n-1].tip)
	if err != nil {
		return fail(err)
	}
	in.rec.UpdateRun(func(r *state.Run) { verification(r).Groups++ })
	if vd.failed == nil {
		if err := in.publish(ctx, group); err != nil {
			return fail(err)
		}
		return nil
	}
	if tv, err := v.verify(ctx, in.tip); err == nil && tv.failed != nil && tv.failed.Kind == vd.failed.Kind {
		for _, k := range group {
			k.l.settle(in.redTipReport(k.l.p, tv.failed), nil)
		}
		return nil
	}
	culprit, gate, rounds, err := v.bisect(ctx, group, vd.failed)
	if err != nil {
		return fail(err)
	}
	if n > 1 {
		v.appendLog(fmt.Sprintf("# autobuild: culprit phase %s found in %d rounds of gate runs among %d landings\n",
			group[culprit].l.p.DisplayID, rounds+1, n))
	}
	if err := in.publish(ctx, group[:culprit]); err != nil {
		for _, k := range group[culprit:] {
			k.l.settle(nil, err)
		}
		return nil
	}
	c := group[culprit].l
	in.rec.UpdateRun(func(r *state.Run) { verification(r).Conflicts++ })
	c.settle(integrationReport(c.p, allFiles(c.ch), in.landedSince(c.base), gate), nil)
	var rest []*landing
	for _, k := range group[culprit+1:] {
		rest = append(rest, k.l)
	}
	return rest
}

// landedSince lists the changes that landed on the line after base: what
// a phase that started from base is picked on top of. Called with mu held.
func (in *Integrator) landedSince(base string) []landedPhase {
	since := 0
	if i := slices.Index(in.tips, base); i >= 0 {
		since = i + 1
	}
	var out []landedPhase
	for _, l := range in.landed {
		if l.tipIndex >= since {
			out = append(out, l)
		}
	}
	return out
}

func namesOf(ls []landedPhase) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, l.name())
	}
	return out
}

// shortNames are the display ids of the phases in ls ("2A"), and "your
// commits …" for changes that are not a phase's.
func shortNames(ls []landedPhase) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, cmp.Or(l.who, string(l.displayID)))
	}
	return out
}

// name is how a report names the change: "phase 2A", or your commits.
func (l landedPhase) name() string { return cmp.Or(l.who, "phase "+string(l.displayID)) }

// integrationReport is the integration_conflict of phase p, whose change
// (files) breaks gate on top of others.
func integrationReport(p *plan.Phase, files []string, others []landedPhase, gate *failure.GateEvidence) *failreport.Report {
	blocker := failure.Blocker(gate.Output)
	names := cmp.Or(strings.Join(namesOf(others), ", "), "what landed since it started")
	msg := fmt.Sprintf("phase %s passes on its own base but breaks `%s` on top of %s", p.DisplayID, gate.Command, names)
	if blocker != "" {
		msg += ": " + blocker
	}
	details := []string{fmt.Sprintf("phase %s changed %s", p.DisplayID, strings.Join(files, ", "))}
	for _, o := range others {
		details = append(details, fmt.Sprintf("%s changed %s", o.name(), strings.Join(o.files, ", ")))
	}
	rep := failreport.Report{
		Type:         failreport.IntegrationConflict,
		Message:      msg,
		Details:      strings.Join(details, "\n"),
		Retryable:    failreport.IntegrationConflict.Retryable(),
		FilesChanged: files,
		BlockedOn:    "the combination with " + names,
		Gate:         gate.Kind,
		GateCommand:  gate.Command,
		GateOutput:   clip.Tail(gate.Output, 30),
		FailingTests: failure.FailingTests(gate.Output),
	}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep
}

// redTipReport halts a landing whose combination fails a gate that the
// line's tip fails alone: not the phase's failure but the tip's, which
// only your own commits can have made red (every landing is verified).
func (in *Integrator) redTipReport(p *plan.Phase, gate *failure.GateEvidence) *failreport.Report {
	run := in.rec.RunCopy()
	rep := checkout.BranchReport(p, fmt.Sprintf("the run's line (%s on %s) fails `%s` without phase %s: %s; your commits since the run "+
		"started broke it; fix them on %s, then resume (phase %s was not committed)", clip.SHA(in.tip), cmp.Or(run.Branch, "HEAD"),
		gate.Command, p.DisplayID, cmp.Or(failure.Blocker(gate.Output), "see .autobuild/logs/verify.log"), cmp.Or(run.Branch, "HEAD"), p.DisplayID))
	rep.Gate, rep.GateCommand, rep.GateOutput = gate.Kind, gate.Command, clip.Tail(gate.Output, 30)
	return rep
}

// AfterIntegrationConflict reports whether the phase's last failure was an
// integration_conflict: its retry starts from the line's current tip.
func AfterIntegrationConflict(previous []failreport.Report) bool {
	return len(previous) > 0 && previous[len(previous)-1].Type == failreport.IntegrationConflict
}

// BaseFailing is the failing tests the run's base had per gate kind
// (--allow-red-base), for the phases' gates; nil when none. It waits for
// the base check.
func (in *Integrator) BaseFailing() map[string][]string {
	return in.Verifier.knownFailing()
}

// StillConflicting makes the failure of a retry after an
// integration_conflict, whose gate failed on top of the other phases'
// work, an integration_conflict again: the combination is what fails, and
// the halt then gives its resolution options.
func StillConflicting(rep failreport.Report, ev failure.Evidence, previous []failreport.Report) failreport.Report {
	if !AfterIntegrationConflict(previous) || ev.Gate == nil || rep.Circular {
		return rep
	}
	last := previous[len(previous)-1]
	rep.Type = failreport.IntegrationConflict
	rep.Message = fmt.Sprintf("still failing on top of the work it conflicted with (%s): %s", last.BlockedOn, rep.Message)
	rep.Details = strings.TrimSpace(rep.Details + "\n" + last.Details)
	rep.SuggestedActions = failure.Suggest(rep)
	return rep
}
