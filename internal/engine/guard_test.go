package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	for _, mode := range []state.CommitMode{state.CommitAuto, state.CommitMessageOnly, state.CommitSingle} {
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

// Attack 3 (issue 25): the agent appends src/ to the shared info/exclude
// (git rev-parse --git-common-dir). Its work in src/ is then invisible to
// git: the phase would land "no changes to commit" and the clean-up would
// delete the work. The change to the common git dir halts the attempt,
// naming the file, before anything lands; the worktree (and the work)
// stays.
func TestAttackSharedExcludeEditHalts(t *testing.T) {
	t.Parallel()
	for name, agentWork := range map[string]string{
		"info/exclude": `mkdir -p src && echo work > src/a.go && echo src/ >> "$(git rev-parse --git-common-dir)/info/exclude"`,
		"hooks":        `echo work > a.go && printf '#!/bin/sh\nexit 0\n' > "$(git rev-parse --git-common-dir)/hooks/pre-push"`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t, onePhasePlan)
			sink := &events{}
			res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, sink))
			require.NoError(t, err)
			require.Equal(t, "halted", string(res.Status), res.Reason)
			require.Contains(t, failureMessages(sink), ".git/"+name)
			require.Empty(t, sink.of(event.PhaseIntegrated), "nothing landed as no changes")
			require.Equal(t, "1", gitIn(t, repo)("rev-list", "--count", "HEAD"))
		})
	}
}

// Attack 3, refs (issue 25): the agent moves or deletes a branch of yours
// that no worktree has checked out: the halt names it and the command
// that puts it back.
func TestAttackYourOtherBranchMovedHalts(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	g := gitIn(t, repo)
	g("branch", "feature")
	g("tag", "v1")
	was := g("rev-parse", "feature")
	agentWork := `echo x > x.txt && git -c user.name=a -c user.email=a@a commit -qam x --allow-empty && git branch -f feature HEAD && git tag -d v1`
	sink := &events{}
	res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, sink))
	require.NoError(t, err)
	require.Equal(t, "halted", string(res.Status), res.Reason)
	msg := failureMessages(sink)
	require.Contains(t, msg, "feature (moved from "+was[:7])
	require.Contains(t, msg, "v1 (deleted")
}

// Attack 4 (issue 25): the agent checks out your branch in its worktree
// and commits there (with a file, or empty). The commit is not kept on
// your branch silently: your branch goes back to where autobuild left it,
// the commit is kept on a branch of its own, and the halt names both.
func TestAttackAgentCommitOnYourBranchIsTakenBack(t *testing.T) {
	t.Parallel()
	for name, commit := range map[string]string{
		"empty":  `git -c user.name=a -c user.email=a@a commit -q --allow-empty -m sneaky`,
		"a file": `echo s > sneaky.txt && git add sneaky.txt && git -c user.name=a -c user.email=a@a commit -qm sneaky`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t, onePhasePlan)
			g := gitIn(t, repo)
			head := g("rev-parse", "HEAD")
			agentWork := `git checkout -q --ignore-other-worktrees main && ` + commit
			sink := &events{}
			res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, sink))
			require.NoError(t, err)
			require.Equal(t, "halted", string(res.Status), res.Reason)
			require.Equal(t, head, g("rev-parse", "main"), "your branch is where autobuild left it")
			require.Empty(t, g("status", "--porcelain"), "your checkout matches it again")
			msg := failureMessages(sink)
			require.Contains(t, msg, "committed on your branch main")
			require.Contains(t, msg, `"sneaky"`)
			require.Contains(t, msg, "autobuild-kept/")
			require.Equal(t, "sneaky", g("log", "-1", "--format=%s", "autobuild-kept/"+strings.TrimPrefix(
				strings.SplitN(msg[strings.Index(msg, "autobuild-kept/"):], ";", 2)[0], "autobuild-kept/")))
		})
	}
}

// Attack 6 (issue 25): file names that read as pathspec magic. In
// message-only mode commits.sh stages each phase's files by name: a file
// named `:!src` must not make the script fail, nor one named
// `:(exclude)src` leave the phase's own src/ file uncommitted. The names
// are literal, in the script and in every git command autobuild runs.
func TestAttackPathspecMagicFileNamesAreLiteral(t *testing.T) {
	t.Parallel()
	const twoPhases = "# Two\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: A\n\n## Phase 2: B\n"
	agentWork := `if [ "$AUTOBUILD_PHASE_ID" = 1 ]; then mkdir -p src && echo a > src/a.go && echo x > ':(exclude)src'; ` +
		`else echo b > src/b.go && echo y > ':!src' && echo z > '*.go'; fi`
	res, repo, _ := runPlanWith(t, twoPhases, agentWork, func(c *Config) { c.CommitMode = state.CommitMessageOnly })
	require.Equal(t, "complete", string(res.Status), res.Reason)
	cmd := exec.Command("sh", ".autobuild/commits.sh")
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := gitIn(t, repo)
	require.Empty(t, g("status", "--porcelain"), "nothing left uncommitted")
	require.Equal(t, ":(exclude)src\nsrc/a.go", g("show", "--format=", "--name-only", "HEAD~1"))
	require.Equal(t, "*.go\n:!src\nsrc/b.go", g("show", "--format=", "--name-only", "HEAD"))
}

// Attack 8 (issue 25): a refused first start (a dirty work tree, exit 3)
// wrote .autobuild/ with its lock, logs/, phases/ and worktrees/. Nothing
// is left behind until every check passes; a refusal by a later check
// (a detached HEAD, found by prepare) takes away what it made.
func TestAttackRefusedStartWritesNoStateDir(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "dirt.txt"), []byte("mine\n"), 0o644))
	_, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, "true", &events{}))
	require.Error(t, err)
	require.Contains(t, err.Error(), "dirt.txt")
	require.NoDirExists(t, filepath.Join(repo, ".autobuild"))

	// A refusal after the state directory was made (a detached HEAD,
	// found by prepare) removes it again.
	require.NoError(t, os.Remove(filepath.Join(repo, "dirt.txt")))
	gitIn(t, repo)("checkout", "-q", "--detach")
	_, err = Run(context.Background(), baseConfig(t, repo, onePhasePlan, "true", &events{}))
	require.ErrorContains(t, err, "HEAD is detached")
	require.NoDirExists(t, filepath.Join(repo, ".autobuild"))
}

// Attack 3, outside the repository (issue 25): the agent adds src/ to your
// global ignore file ($XDG_CONFIG_HOME/git/ignore), which hides its work
// from git as info/exclude does: the attempt halts naming the file.
// Not parallel: it sets the environment.
func TestAttackGlobalIgnoreEditHalts(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	require.NoError(t, os.MkdirAll(filepath.Join(xdg, "git"), 0o755))
	repo := gitRepo(t, onePhasePlan)
	agentWork := `mkdir -p src && echo work > src/a.go && echo src/ >> "$XDG_CONFIG_HOME/git/ignore"`
	sink := &events{}
	res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, sink))
	require.NoError(t, err)
	require.Equal(t, "halted", string(res.Status), res.Reason)
	require.Contains(t, failureMessages(sink), filepath.Join(xdg, "git", "ignore"))
	require.Empty(t, sink.of(event.PhaseIntegrated), "nothing landed as no changes")
}
