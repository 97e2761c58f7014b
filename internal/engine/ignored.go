package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// userFilesInTheWay halts the landing of phase p, before anything moves,
// when a file of yours that git does not track (an ignored one: git refuses
// to overwrite any other) sits where the phase's change would be written
// in your checkout: the fast-forward (auto) or the squash at the end
// (message-only, single) would replace it without a copy. An agent that
// empties .gitignore and writes config.local, or adds it with
// `git add -f`, is the case. Called with in.mu held.
func (in *integrator) userFilesInTheWay(ctx context.Context, p *plan.Phase, phaseFiles []string) *failure.Report {
	theirs, err := in.repo.UntrackedInTheWay(ctx, phaseFiles)
	if err != nil {
		return branchReport(p, fmt.Sprintf("phase %s was not committed: reading which of its files your checkout holds "+
			"untracked: %v", p.DisplayID, err))
	}
	if len(theirs) == 0 {
		return nil
	}
	rep := branchReport(p, fmt.Sprintf("your checkout holds %s, which git does not track (ignored), where phase %s's "+
		"change writes: landing it would overwrite your file without a copy, so nothing was landed; keep a copy of "+
		"yours (or move it aside) and resume to land the phase's version, or fix the phase's change in its worktree",
		strings.Join(theirs, ", "), p.DisplayID))
	rep.Type, rep.FilesChanged, rep.BlockedOn = failure.FileConflict, theirs, "your ignored files"
	rep.SuggestedActions = failure.Suggest(*rep)
	return rep
}
