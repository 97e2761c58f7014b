package engine

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// restoreAfterGates puts the worktree back to tree, as the agent left it,
// and says in the attempt log what the gates had changed, so a binary
// written by `go build` or a report written by a test runner never lands in
// the phase's commit.
func restoreAfterGates(ctx context.Context, wt, tree string, log io.Writer) error {
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
