package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest/fakeacp"
)

const helloPlan = "# Hello\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Hello | - |\n\n" +
	"## Phase 1: Hello\n- [ ] create hello.txt\n\n## Quality Gates\n- test: `test -f hello.txt`\n"

// autobuildEnv runs the binary in dir with exactly the environment env.
func autobuildEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = dir, env
	return runCmd(t, cmd)
}

var (
	fakeACPOnce sync.Once
	fakeACPBin  string
	fakeACPErr  error
)

// fakeACP builds the scripted ACP agent once.
func fakeACP(t *testing.T) string {
	t.Helper()
	fakeACPOnce.Do(func() {
		fakeACPBin = filepath.Join(filepath.Dir(binary), "fakeacp")
		out, err := exec.Command("go", "build", "-o", fakeACPBin, "../../internal/agenttest/fakeacp/cmd/fakeacp").CombinedOutput()
		if err != nil {
			fakeACPErr = err
			fakeACPBin = string(out)
		}
	})
	require.NoError(t, fakeACPErr, fakeACPBin)
	return fakeACPBin
}

// The binary runs an ACP agent given as `acp:CMD`: the tool line and the
// plan show in --no-tui, the agent's write lands in the phase's commit,
// and the run completes.
func TestACPAgentThroughTheBinary(t *testing.T) {
	t.Parallel()
	bin := fakeACP(t)
	repo := newRepo(t, helloPlan)
	result := "```json\n{\"phase_id\": \"1\", \"status\": \"complete\", \"tasks\": {\"total\": 1, \"completed\": 1}, \"commit_message\": \"feat: hello over ACP\", \"error\": null}\n```\n"
	sc := fakeacp.Script{Steps: []fakeacp.Step{
		{Plan: []string{"write hello.txt"}},
		{Write: true, Path: "hello.txt", Content: "hello\n"},
		{Write: true, Path: "../outside.txt", Content: "no\n"},
		{Text: "Done.\n" + result},
	}, Usage: &fakeacp.Usage{InputTokens: 300, OutputTokens: 30, TotalTokens: 330}}
	env := append(os.Environ(), fakeacp.ScriptEnv+"="+fakeacp.ScriptJSON(sc))
	r := autobuildEnv(t, repo, env, "plan.md", "--commit=auto", "--no-tui", "--agent", "acp:"+bin)
	require.Equal(t, 0, r.code, r.String())
	out := r.stdout + r.stderr
	require.Contains(t, out, "Write hello.txt")
	require.Contains(t, out, "Plan 0/1 done")
	require.Equal(t, "feat: hello over ACP", strings.Split(git(t, repo, "log", "-1", "--format=%s"), "\n")[0])
	require.NoFileExists(t, filepath.Join(filepath.Dir(repo), "outside.txt"))
	require.NoFileExists(t, filepath.Join(repo, ".autobuild", "outside.txt"))
}
