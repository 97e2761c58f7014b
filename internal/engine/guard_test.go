package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

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

// Attack 2 (issue 25): attempt 1 replaces its worktree by a symbolic link
// (to your checkout, or to any directory) and fails. The retry must not
// run in the link's target: the path is proven to be the phase's own
// worktree before every attempt, and made again when it is a link; the
// attempt's log names what was found.
func TestAttackWorktreeReplacedByALinkIsMadeAgain(t *testing.T) {
	t.Parallel()
	for _, target := range []string{"your checkout", "another directory"} {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t, onePhasePlan)
			to := repo
			if target == "another directory" {
				to = t.TempDir()
			}
			agentWork := `if [ "$AUTOBUILD_ATTEMPT" = 1 ]; then d=$(pwd); cd .. && rm -rf "$d" && ln -s '` + to +
				`' "$d"; exit 1; fi; echo agent > pwned.txt`
			sink := &events{}
			cfg := baseConfig(t, repo, onePhasePlan, agentWork, sink)
			cfg.Backoff = func(int) time.Duration { return 0 }
			res, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			if to != repo {
				require.NoFileExists(t, filepath.Join(to, "pwned.txt"), "the retry ran in the link's target")
			}
			// In your checkout, a write by the retry would be an outside
			// change: the run would halt rather than complete.
			require.Equal(t, "complete", string(res.Status), res.Reason)
			require.Equal(t, "agent", gitIn(t, repo)("show", "HEAD:pwned.txt"))
			require.Contains(t, attemptLogs(t, repo), "was a symbolic link to "+to)
		})
	}
}

// Attack 2, variant (issue 25): .autobuild/worktrees itself replaced by a
// link, or a real directory that is not the phase's worktree at its path:
// no agent runs, the run halts naming what was found, and nothing is
// removed.
func TestAttackWorktreeReplacedByADirectoryHalts(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	agentWork := `if [ "$AUTOBUILD_ATTEMPT" = 1 ]; then d=$(pwd); cd .. && rm -rf "$d" && mkdir "$d" && echo keep > "$d/k"; exit 1; fi; echo agent > pwned.txt`
	sink := &events{}
	cfg := baseConfig(t, repo, onePhasePlan, agentWork, sink)
	cfg.Backoff = func(int) time.Duration { return 0 }
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, "halted", string(res.Status))
	require.Contains(t, failureMessages(sink), "is not the phase's own worktree")
	wt := filepath.Join(repo, ".autobuild", "worktrees", "phase-1")
	require.NoFileExists(t, filepath.Join(wt, "pwned.txt"))
	require.FileExists(t, filepath.Join(wt, "k"))
}

// Attack 2, variant (issue 25): .autobuild/worktrees replaced by a link to
// another directory: the retry does not start there, and the halt names
// the link.
func TestAttackWorktreesDirReplacedByALinkHalts(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	other := t.TempDir()
	agentWork := `if [ "$AUTOBUILD_ATTEMPT" = 1 ]; then w=$(dirname "$(pwd)"); cd / && mv "$w" "$w.moved" && ln -s '` + other +
		`' "$w"; exit 1; fi; echo agent > pwned.txt`
	sink := &events{}
	cfg := baseConfig(t, repo, onePhasePlan, agentWork, sink)
	cfg.Backoff = func(int) time.Duration { return 0 }
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, "halted", string(res.Status))
	require.Contains(t, failureMessages(sink), "is a symbolic link to "+other)
	entries, err := os.ReadDir(other)
	require.NoError(t, err)
	require.Empty(t, entries, "nothing was made in the link's target")
}
