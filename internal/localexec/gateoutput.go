package localexec

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// RestoreAfterGates puts the worktree back to tree, as the agent left it,
// and says in the attempt log what the gates had changed, so a binary
// written by `go build` or a report written by a test runner never lands in
// the phase's commit.
func RestoreAfterGates(ctx context.Context, wt, tree string, log io.Writer) error {
	back, err := gitx.RestoreTree(ctx, wt, tree)
	if err != nil {
		return fmt.Errorf("putting the worktree back as the agent left it after the gates: %w", err)
	}
	if len(back) > 0 {
		shown := back
		if len(shown) > 10 {
			shown = append(shown[:10:10], fmt.Sprintf("and %d more", len(back)-10))
		}
		fmt.Fprintf(log, "# autobuild: the gates created or changed %s; put back as the agent left them (only the agent's work is committed)\n",
			strings.Join(shown, ", "))
	}
	return nil
}

// FoldGateCommits takes back commits a gate made in the worktree (`reset
// --soft` to base, the commit the phase's work is on), as the agent's are
// folded: the files stay as restoreAfterGates put them, so the phase's
// commit holds the agent's work, and nothing a gate committed, or swallowed
// into its commit, is lost or lands.
func FoldGateCommits(ctx context.Context, repo *gitx.Repo, wt, base string, log io.Writer) error {
	head, err := repo.Head(ctx, wt)
	if err != nil || head == base {
		return err
	}
	if err := repo.ResetSoft(ctx, wt, base); err != nil {
		return fmt.Errorf("taking back a gate's commit: %w", err)
	}
	fmt.Fprintf(log, "# autobuild: a gate committed (HEAD was %s); its commit is taken back, the agent's work kept as it left it\n", clip.SHA(head))
	return nil
}
