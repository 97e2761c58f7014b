package checkout

import (
	"context"
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// UserFilesInTheWay halts the landing of phase p, before anything moves,
// when a file of yours that git does not track (an ignored one: git refuses
// to overwrite any other) sits where the phase's change would be written
// in your checkout: the fast-forward (auto) or the squash at the end
// (message-only, single) would replace it without a copy. An agent that
// empties .gitignore and writes config.local, or adds it with
// `git add -f`, is the case. Called with the line's lock held.
func (g *Guard) UserFilesInTheWay(ctx context.Context, p *plan.Phase, phaseFiles []string) *failreport.Report {
	theirs, err := g.repo.UntrackedInTheWay(ctx, phaseFiles)
	if err != nil {
		return BranchReport(p, fmt.Sprintf("phase %s was not committed: reading which of its files your checkout holds "+
			"untracked: %v", p.DisplayID, err))
	}
	if len(theirs) == 0 {
		return nil
	}
	files := strings.Join(theirs, ", ")
	rep := BranchReport(p, fmt.Sprintf("your checkout holds %s, which git does not track (ignored), where phase %s's "+
		"change writes: landing it would overwrite your file without a copy, so nothing was landed", files, p.DisplayID))
	rep.Type, rep.FilesChanged, rep.BlockedOn = failreport.FileConflict, theirs, "your ignored files"
	rep.SuggestedActions = []string{
		"look at what the phase wrote there: its worktree is kept (" + files + " in the attempt's diff)",
		"keep a copy of your " + files + " (move it out of the way), then resume: the phase runs again and its version lands",
		"or tell the phase in the plan not to write " + files + " (and not to change .gitignore), then resume",
	}
	return rep
}
