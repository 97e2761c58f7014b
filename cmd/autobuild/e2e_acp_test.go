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

// The ACP presets are checked before the run like the others: not
// installed, or not logged in, is exit 3 with the fix, and nothing runs.
func TestPreflightACPPresets(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, helloPlan)
	ran := filepath.Join(t.TempDir(), "ran")
	for _, tc := range []struct{ cli, want, fix string }{
		{"qwen", "qwen is not logged in", "OPENAI_API_KEY"},
		{"opencode", "opencode is not logged in", "opencode auth login"},
		{"copilot", "copilot is not logged in", "COPILOT_GITHUB_TOKEN"},
	} {
		env := presetEnv(t, tc.cli, "touch "+ran)
		env = withoutVars(env, "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_", "XDG_", "DASHSCOPE_API_KEY", "QWEN_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "OPENCODE_")
		r := autobuildEnv(t, repo, env, "plan.md", "--commit=auto", "--agent", tc.cli)
		require.Equal(t, 3, r.code, r.String())
		require.Contains(t, r.stderr, tc.want)
		require.Contains(t, r.stderr, tc.fix)
		require.NoDirExists(t, filepath.Join(repo, ".autobuild"))
		require.NoFileExists(t, ran, "the CLI is not run")
	}
	// Not installed: the install hint.
	env := presetEnv(t, "other", "true")
	r := autobuildEnv(t, repo, env, "plan.md", "--commit=auto", "--agent", "acp:claude-code-acp")
	require.Equal(t, 3, r.code, r.String())
	require.Contains(t, r.stderr, "npm install -g @zed-industries/claude-code-acp")
}

// withoutVars drops the variables named (or starting with a name ending
// in _) from env.
func withoutVars(env []string, names ...string) []string {
	var out []string
next:
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		for _, n := range names {
			if k == n || (strings.HasSuffix(n, "_") && strings.HasPrefix(k, n)) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
