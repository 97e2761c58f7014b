package line

import (
	"context"
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// followUser checks with the guard, in auto mode and before a phase lands,
// that your checkout is still on the run's branch and where that branch
// is. When you committed on it since the last landing, the run's line
// moves onto your commits (remembered as a landed change, so an overlap
// names them) and the phase is picked on top. Called with in.mu held.
func (in *Integrator) followUser(ctx context.Context, p *plan.Phase, phaseFiles []string, outside checkout.State) *failreport.Report {
	head, mine, rep := in.Guard.Follow(ctx, p, phaseFiles, outside, in.branchAt, in.tip, in.tips)
	if rep != nil {
		return rep
	}
	if !mine {
		in.branchAt = head
		return nil
	}
	ch, err := gitx.ChangesBetween(ctx, in.mainDir, in.tip, head)
	if err != nil {
		return checkout.BranchReport(p, "reading your commits: "+err.Error())
	}
	in.landed = append(in.landed, landedPhase{who: fmt.Sprintf("your commits %s..%s on %s", clip.SHA(in.tip), clip.SHA(head), in.rec.RunCopy().Branch),
		base: in.tip, sha: head, files: allFiles(ch), tipIndex: len(in.tips)})
	in.setTip(head)
	in.branchAt = head
	in.tips = append(in.tips, head)
	return nil
}

// WithTips calls f with every tip the line has had, under in.mu: the
// guard's view of the line (Line).
func (in *Integrator) WithTips(f func(tips []string)) {
	in.mu.Lock()
	defer in.mu.Unlock()
	f(in.tips)
}

// checkLock halts the landing of phase p when the run no longer holds its
// lock (the lock file was deleted or replaced mid-run).
func (in *Integrator) checkLock(p *plan.Phase) *failreport.Report {
	if in.LockHeld == nil {
		return nil
	}
	err := in.LockHeld()
	if err == nil {
		return nil
	}
	rep := failreport.Report{Type: failreport.LockLost, Message: fmt.Sprintf("phase %s was not committed: %v", p.DisplayID, err),
		Retryable: false, BlockedOn: "the run's lock"}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep
}

// undoLanding takes phase p back off the run's line after your branch
// refused its fast-forward (moved or changed in the instant between the
// check and the landing), so that a resume runs it again rather than find
// it landed, and returns the halt that says so. In auto mode, the only one
// that fast-forwards, the line is your branch: only the integrator's
// memory of it moved. Called with in.mu held.
func (in *Integrator) undoLanding(p *plan.Phase, prevTip string, ffErr error) *failreport.Report {
	in.setTip(prevTip)
	in.tips = in.tips[:len(in.tips)-1]
	in.landed = in.landed[:len(in.landed)-1]
	return checkout.BranchReport(p, fmt.Sprintf("phase %s could not land on your branch, which changed while it landed (%v): check your checkout "+
		"(git status, git log), then resume", p.DisplayID, ffErr))
}
