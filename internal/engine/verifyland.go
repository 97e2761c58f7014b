package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
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

// verifyLanding keeps the line green (docs/running.md, "The line stays
// green"): a phase whose commit was made on the line's tip lands on its
// own gates' word (they ran on exactly that tree, which is remembered as
// green); one picked onto a tip that moved since it started is verified
// on the combined tree (newSHA) before the line moves. A combination
// that fails is the phase's integration_conflict, unless the tip it was
// picked onto fails the same gate alone (then your commits broke it, and
// the run halts saying so). Called with mu held.
func (in *integrator) verifyLanding(ctx context.Context, p *plan.Phase, base string, made gitx.Made, newSHA string, ch gitx.Changes) (*failure.Report, error) {
	v := in.verifier
	if v == nil {
		return nil, nil
	}
	if made.Parent == in.tip || newSHA == in.tip {
		// Its gates ran on this very tree, or nothing of it is left to land.
		v.markGreen(ctx, newSHA)
		return nil, nil
	}
	others := in.landedSince(base)
	in.rec.emit(event.Event{Kind: event.PhaseVerifying, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Line: "on top of " + cmp.Or(strings.Join(shortNames(others), ", "), "the run's line "+clip.SHA(in.tip))})
	crashAt("verifying", p.ID)
	vd, err := v.verify(ctx, newSHA)
	if err != nil {
		return nil, fmt.Errorf("verifying phase %s on top of the run's line: %w", p.DisplayID, err)
	}
	in.rec.updateRun(func(r *state.Run) { verification(r).Groups++ })
	if vd.failed == nil {
		return nil, nil
	}
	if tv, err := v.verify(ctx, in.tip); err == nil && tv.failed != nil && tv.failed.Kind == vd.failed.Kind {
		return in.redTipReport(p, tv.failed), nil
	}
	in.rec.updateRun(func(r *state.Run) { verification(r).Conflicts++ })
	return integrationReport(p, allFiles(ch), others, vd.failed), nil
}

// landedSince lists the changes that landed on the line after base: what
// a phase that started from base is picked on top of. Called with mu held.
func (in *integrator) landedSince(base string) []landedPhase {
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
func integrationReport(p *plan.Phase, files []string, others []landedPhase, gate *failure.GateEvidence) *failure.Report {
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
	rep := failure.Report{
		Type:         failure.IntegrationConflict,
		Message:      msg,
		Details:      strings.Join(details, "\n"),
		Retryable:    failure.IntegrationConflict.Retryable(),
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
func (in *integrator) redTipReport(p *plan.Phase, gate *failure.GateEvidence) *failure.Report {
	run := in.rec.runCopy()
	rep := branchReport(p, fmt.Sprintf("the run's line (%s on %s) fails `%s` without phase %s: %s; your commits since the run "+
		"started broke it; fix them on %s, then resume (phase %s was not committed)", clip.SHA(in.tip), cmp.Or(run.Branch, "HEAD"),
		gate.Command, p.DisplayID, cmp.Or(failure.Blocker(gate.Output), "see .autobuild/logs/verify.log"), cmp.Or(run.Branch, "HEAD"), p.DisplayID))
	rep.Gate, rep.GateCommand, rep.GateOutput = gate.Kind, gate.Command, clip.Tail(gate.Output, 30)
	return rep
}

// afterIntegrationConflict reports whether the phase's last failure was an
// integration_conflict: its retry starts from the line's current tip.
func afterIntegrationConflict(previous []failure.Report) bool {
	return len(previous) > 0 && previous[len(previous)-1].Type == failure.IntegrationConflict
}

// baseFailing is the failing tests the run's base had per gate kind
// (--allow-red-base), for the phases' gates; nil when none. Set before
// the first phase starts, read-only after.
func (in *integrator) baseFailing() map[string][]string {
	if in.verifier == nil {
		return nil
	}
	return in.verifier.baseFailing
}

// stillConflicting makes the failure of a retry after an
// integration_conflict, whose gate failed on top of the other phases'
// work, an integration_conflict again: the combination is what fails, and
// the halt then gives its resolution options.
func stillConflicting(rep failure.Report, ev failure.Evidence, previous []failure.Report) failure.Report {
	if !afterIntegrationConflict(previous) || ev.Gate == nil || rep.Circular {
		return rep
	}
	last := previous[len(previous)-1]
	rep.Type = failure.IntegrationConflict
	rep.Message = fmt.Sprintf("still failing on top of the work it conflicted with (%s): %s", last.BlockedOn, rep.Message)
	rep.Details = strings.TrimSpace(rep.Details + "\n" + last.Details)
	rep.SuggestedActions = failure.Suggest(rep)
	return rep
}
