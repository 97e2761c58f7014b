package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// PutWorkOnto with a pick git cannot make (a signing program that refuses)
// says so and leaves the worktree and its branch as they were: moving on
// to the tip alone would drop the earlier attempt's change without a word.
func TestPutWorkOntoKeepsTheWorkWhenThePickFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, root, base := newRepoAtBase(t)
	wt := filepath.Join(t.TempDir(), "phase")
	gitT(t, root, "worktree", "add", "-q", "-b", "phase", wt, base)
	commitFiles(t, wt, "the phase's change", "phase.txt", "work\n")
	head := strings.TrimSpace(gitT(t, wt, "rev-parse", "HEAD"))
	commitFiles(t, root, "landed meanwhile", "other.txt", "other\n")
	tip := strings.TrimSpace(gitT(t, root, "rev-parse", "HEAD"))

	refuse := filepath.Join(t.TempDir(), "gpg")
	require.NoError(t, os.WriteFile(refuse, []byte("#!/bin/sh\nexit 1\n"), 0o755))
	gitT(t, root, "config", "gpg.program", refuse)
	gitT(t, root, "config", "commit.gpgsign", "true")
	r, err := Open(ctx, root) // reads commit.gpgSign
	require.NoError(t, err)

	_, err = r.PutWorkOnto(ctx, wt, tip)
	require.ErrorContains(t, err, "picking the worktree's change")
	require.Equal(t, head, strings.TrimSpace(gitT(t, wt, "rev-parse", "HEAD")), "the branch keeps the change")
	require.Equal(t, "work\n", readFile(t, wt, "phase.txt"))
}
