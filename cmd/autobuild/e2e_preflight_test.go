package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const helloPlan = "# Hello\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Hello | - |\n\n" +
	"## Phase 1: Hello\n- [ ] create hello.txt\n\n## Quality Gates\n- test: `test -f hello.txt`\n"

// presetEnv is the environment of a run whose agent CLI is a script named
// like the preset, first on PATH, with a fresh HOME and none of the CLIs'
// credentials inherited from the test's environment.
func presetEnv(t *testing.T, cli, script string, extra ...string) []string {
	t.Helper()
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, cli), []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	var env []string
	for _, kv := range command("").Env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH" || k == "HOME" || k == "IS_SANDBOX" || k == "CLAUDE_CONFIG_DIR" || k == "CODEX_HOME":
		case strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") || strings.HasPrefix(k, "OPENAI_") ||
			strings.HasPrefix(k, "CODEX_") || strings.HasPrefix(k, "GEMINI_") || strings.HasPrefix(k, "GOOGLE_"):
		default:
			env = append(env, kv)
		}
	}
	return append(env, append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir()}, extra...)...)
}

func autobuildEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = dir, env
	return runCmd(t, cmd)
}

// A typo in --agent is bad usage, named with the presets; nothing is
// written.
func TestPreflightUnknownAgent(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, helloPlan)
	r := autobuild(t, repo, "plan.md", "--commit=auto", "--agent", "clod")
	require.Equal(t, 2, r.code, r.String())
	require.Contains(t, r.stderr, `unknown agent "clod"`)
	require.Contains(t, r.stderr, "claude, codex, aider, gemini")
	require.NoDirExists(t, filepath.Join(repo, ".autobuild"))
}

// A preset CLI with no login is refused before anything starts (exit 3),
// with the fix; no state is written and the CLI is never run.
func TestPreflightNotLoggedIn(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, helloPlan)
	ran := filepath.Join(t.TempDir(), "ran")
	for _, tc := range []struct{ cli, want, fix string }{
		{"claude", "claude is not logged in", "ANTHROPIC_API_KEY"},
		{"codex", "codex is not logged in", "codex login"},
		{"gemini", "gemini has no auth method", "GEMINI_API_KEY"},
	} {
		env := presetEnv(t, tc.cli, "touch "+ran, "IS_SANDBOX=1")
		r := autobuildEnv(t, repo, env, "plan.md", "--commit=auto", "--agent", tc.cli+" --model x")
		require.Equal(t, 3, r.code, r.String())
		require.Contains(t, r.stderr, tc.want)
		require.Contains(t, r.stderr, "fix: ")
		require.Contains(t, r.stderr, tc.fix)
		require.NoDirExists(t, filepath.Join(repo, ".autobuild"))
		require.NoFileExists(t, ran, "the CLI is not run")
	}
}

// As root, claude refuses to skip its permission checks unless
// IS_SANDBOX=1: refused before the run, with both ways out.
func TestPreflightClaudeAsRoot(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("claude's root refusal only applies when running as root")
	}
	repo := newRepo(t, helloPlan)
	env := presetEnv(t, "claude", "exit 1", "ANTHROPIC_API_KEY=dummy")
	r := autobuildEnv(t, repo, env, "plan.md", "--commit=auto", "--agent", "claude")
	require.Equal(t, 3, r.code, r.String())
	require.Contains(t, r.stderr, "root")
	require.Contains(t, r.stderr, "IS_SANDBOX=1")
	require.Contains(t, r.stderr, "non-root user")

	// autobuild.toml can set it for the preset.
	writeFile(t, filepath.Join(repo, "autobuild.toml"), "[agents.claude]\nenv = { IS_SANDBOX = \"1\" }\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "config")
	r = autobuildEnv(t, repo, env, "plan.md", "--commit=auto", "--agent", "claude", "--no-tui")
	require.NotEqual(t, 3, r.code, r.String())
}
