package gitx

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// An operation an agent left half way is forgotten, its changes kept; a
// later reset --soft (what folds an agent's commits) then works.
func TestForgetOperationsEndsWhatTheAgentLeftInProgress(t *testing.T) {
	t.Parallel()
	for name, leave := range map[string]func(t *testing.T, root string){
		"merge": func(t *testing.T, root string) {
			cmd := exec.Command("git", "merge", "-q", "--no-commit", "--no-ff", "other")
			cmd.Dir = root
			require.Error(t, cmd.Run(), "both sides wrote c.txt")
		},
		"cherry-pick with a conflict": func(t *testing.T, root string) {
			cmd := exec.Command("git", "cherry-pick", "other")
			cmd.Dir = root
			require.Error(t, cmd.Run(), "both sides wrote c.txt")
		},
		"revert": func(t *testing.T, root string) {
			gitT(t, root, "revert", "--no-commit", "HEAD")
		},
		"rebase": func(t *testing.T, root string) {
			cmd := exec.Command("git", "rebase", "-q", "--exec", "false", "other")
			cmd.Dir = root
			_ = cmd.Run() // stops at the failing exec
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, root := newRepo(t)
			base := gitT(t, root, "rev-parse", "HEAD")
			gitT(t, root, "checkout", "-q", "-b", "other")
			commitFiles(t, root, "other", "c.txt", "other\n")
			gitT(t, root, "checkout", "-q", "main")
			commitFiles(t, root, "mine", "c.txt", "mine\n")
			leave(t, root)
			gitT(t, root, "add", "-A") // the agent resolved what conflicted, and stopped
			status := gitT(t, root, "status", "--porcelain")

			forgotten, err := r.ForgetOperations(context.Background(), "")
			require.NoError(t, err)
			require.NotEmpty(t, forgotten)
			for _, marker := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "sequencer", "rebase-merge", "rebase-apply"} {
				require.NoFileExists(t, filepath.Join(root, ".git", marker))
			}
			require.Equal(t, status, gitT(t, root, "status", "--porcelain"), "the changes are kept")
			gitT(t, root, "reset", "-q", "--soft", base)

			again, err := r.ForgetOperations(context.Background(), "")
			require.NoError(t, err)
			require.Empty(t, again)
		})
	}
}
