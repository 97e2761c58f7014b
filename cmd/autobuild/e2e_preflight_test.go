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
