package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const twoPhases = `# Two

| Phase | Name | Depends On |
|---|---|---|
| 1 | One | - |
| 2 | Two | 1 |

## Phase 1: One
- [ ] one

## Phase 2: Two
- [ ] two
`

// A run started in a subdirectory, with the plan path relative to it: the
// resume command status prints works as pasted, from anywhere.
func TestResumeCommandForARunStartedInASubdirectory(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, "")
	writeFile(t, filepath.Join(repo, "docs", "plan.md"), twoPhases)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "plan in docs/")
	gate := filepath.Join(t.TempDir(), "fixed")
	agent := agentScript(t, `test "$AUTOBUILD_PHASE_ID" = 1 || test -f `+gate+` || { echo "not yet" >&2; exit 1; }
echo "$AUTOBUILD_PHASE_ID" > "out-$AUTOBUILD_PHASE_ID.txt"
`)
	r := autobuild(t, filepath.Join(repo, "docs"), "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.Equal(t, 1, r.code, r.String())
	require.Equal(t, "docs/plan.md", loadRun(t, repo).PlanPath, "run.json keeps the path from the repository root")

	st := autobuild(t, t.TempDir(), "status", repo)
	require.Equal(t, 1, st.code, "status exits with the run's own code\n%s", st)
	_, cmdLine, ok := strings.Cut(st.stdout, "Continue it with: ")
	require.True(t, ok, st.stdout)
	cmdLine, _, _ = strings.Cut(cmdLine, " (complete phases")
	require.True(t, strings.HasPrefix(cmdLine, "cd "+repo+" && "), cmdLine)
	require.True(t, strings.HasSuffix(cmdLine, " docs/plan.md --resume"), cmdLine)

	require.NoError(t, os.WriteFile(gate, nil, 0o644))
	// Pasted into a shell somewhere else.
	sh := command(t.TempDir())
	sh.Path, sh.Args = "/bin/sh", []string{"sh", "-c", cmdLine + " --no-tui"}
	res := runCmd(t, sh)
	require.Equal(t, 0, res.code, res.String())
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
}

// Untracked files block a run with advice that works: following it (git
// stash -u) lets the run start, and the files come back afterwards.
func TestUntrackedFilesAdviceWorks(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoPhases)
	writeFile(t, filepath.Join(repo, "scratch.txt"), "mine\n")
	agent := agentScript(t, `echo x > "out-$AUTOBUILD_PHASE_ID.txt"`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.Equal(t, 3, r.code, r.String())
	require.Contains(t, r.stderr, "untracked files")
	require.Contains(t, r.stderr, "git stash -u (plain git stash leaves untracked files)")
	require.Contains(t, r.stderr, "scratch.txt")

	git(t, repo, "stash", "-u")
	r = autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	git(t, repo, "stash", "pop")
	require.FileExists(t, filepath.Join(repo, "scratch.txt"))
}

// A complete plan run again says so, and how to run it again, instead of
// skipping every phase in silence.
func TestCompletePlanRunAgainSaysSo(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoPhases)
	agent := agentScript(t, `echo x > "out-$AUTOBUILD_PHASE_ID.txt"`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	head := git(t, repo, "rev-parse", "HEAD")

	r = autobuild(t, repo, "plan.md", "--no-tui")
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "The plan is already complete")
	require.Contains(t, r.stdout, "plan.md --no-tui --fresh --commit=auto")
	require.Equal(t, head, git(t, repo, "rev-parse", "HEAD"))

	st := autobuild(t, repo, "status")
	require.Equal(t, 0, st.code, "a complete run's status exits 0\n%s", st)
}

// --no-tui prints a heartbeat per running phase while its agent is quiet
// (every 30 s; AUTOBUILD_HEARTBEAT shortens it here).
func TestNoTUIHeartbeat(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoPhases)
	cmd := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent",
		agentScript(t, `echo "thinking about $AUTOBUILD_PHASE_ID"; sleep 1; echo x > "out-$AUTOBUILD_PHASE_ID.txt"`))
	cmd.Env = append(cmd.Env, "AUTOBUILD_HEARTBEAT=200ms")
	r := runCmd(t, cmd)
	require.Equal(t, 0, r.code, r.String())
	require.Regexp(t, `\] PHASE 1 RUNNING \d+s \(attempt 1/2\) - last output \d+s ago: thinking about 1\n`, r.stdout)
	require.Regexp(t, `\] PHASE 2 RUNNING \d+s \(attempt 1/2\) - last output \d+s ago: thinking about 2\n`, r.stdout)
}

// validate --json, from the built binary: one document on stdout, nothing
// on stderr, the exit status saying valid or not.
func TestValidateJSONDocument(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "plan.md"), twoPhases)
	r := autobuild(t, dir, "validate", "--json", "plan.md")
	require.Equal(t, 0, r.code, r.String())
	require.Empty(t, r.stderr)
	var doc struct {
		Version int  `json:"version"`
		Valid   bool `json:"valid"`
		Phases  []struct {
			ID        string   `json:"id"`
			DependsOn []string `json:"depends_on"`
		} `json:"phases"`
		Batches []struct {
			Phases []string `json:"phases"`
		} `json:"batches"`
		Errors []struct {
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
	require.Equal(t, 1, doc.Version)
	require.True(t, doc.Valid)
	require.Len(t, doc.Phases, 2)
	require.Equal(t, []string{"1"}, doc.Phases[1].DependsOn)
	require.Len(t, doc.Batches, 2)

	writeFile(t, filepath.Join(dir, "bad.md"), strings.Replace(twoPhases, "| 2 | Two | 1 |", "| 2 | Two | 7 |", 1))
	r = autobuild(t, dir, "validate", "--json", "bad.md")
	require.Equal(t, 2, r.code, r.String())
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
	require.False(t, doc.Valid)
	require.Len(t, doc.Errors, 1)
	require.Equal(t, 6, doc.Errors[0].Line)
	require.Equal(t, `unknown dependency "7" in phase 2`, doc.Errors[0].Message)
}
