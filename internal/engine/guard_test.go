package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// failureMessages joins the messages of the run's failed attempts.
func failureMessages(sink *events) string {
	var out string
	for _, e := range sink.of(event.PhaseFailed) {
		if e.Failure != nil {
			out += e.Failure.Message + "\n"
		}
	}
	return out
}

// Attack 1 (issue 25): .gitignore lists config.local, your checkout holds
// config.local with your key; the agent empties .gitignore and writes
// config.local (or adds it with git add -f). The landing would overwrite
// your file without a copy (merge --ff-only and merge --squash overwrite
// ignored files): the run stops before anything moves, naming the file,
// in every commit mode.
func TestAttackIgnoredFileOfYoursIsNotOverwritten(t *testing.T) {
	t.Parallel()
	agents := map[string]string{
		"empties .gitignore": `: > .gitignore && echo agent > config.local`,
		"git add -f":         `echo agent > config.local && git add -f config.local`,
	}
	for _, mode := range []state.CommitMode{CommitAuto, CommitMessageOnly, CommitSingle} {
		for name, agentWork := range agents {
			t.Run(string(mode)+"/"+name, func(t *testing.T) {
				t.Parallel()
				repo := gitRepo(t, onePhasePlan)
				g := gitIn(t, repo)
				require.NoError(t, os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("config.local\n.autobuild/\n"), 0o644))
				g("add", ".gitignore")
				g("commit", "-qm", "ignore config.local")
				require.NoError(t, os.WriteFile(filepath.Join(repo, "config.local"), []byte("key=mine\n"), 0o600))
				head := g("rev-parse", "HEAD")
				sink := &events{}
				cfg := baseConfig(t, repo, onePhasePlan, agentWork, sink)
				cfg.CommitMode = mode
				res, err := Run(context.Background(), cfg)
				require.NoError(t, err)
				got, err := os.ReadFile(filepath.Join(repo, "config.local"))
				require.NoError(t, err)
				require.Equal(t, "key=mine\n", string(got), "your ignored file is yours")
				require.NotEqual(t, "complete", string(res.Status))
				require.Contains(t, failureMessages(sink), "config.local")
				require.Equal(t, head, g("rev-parse", "HEAD"), "nothing moved")
			})
		}
	}
}
