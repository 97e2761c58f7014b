package failure

import (
	"strings"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

func TestSuggestPerType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r    failreport.Report
		want string // the first action contains this
	}{
		{failreport.Report{Type: failreport.TestFailure, FailingTests: []string{"TestA"}, GateCommand: "go test ./..."}, "fix the failing tests: TestA"},
		{failreport.Report{Type: failreport.TestFailure, GateCommand: "go test ./..."}, "run the tests in the phase's worktree to see the failures: go test ./..."},
		{failreport.Report{Type: failreport.LintError, GateCommand: "ruff check ."}, "run the linter and fix what it reports: ruff check ."},
		{failreport.Report{Type: failreport.TypecheckError, GateCommand: "npx tsc --noEmit"}, "run the build or type check and fix the errors: npx tsc --noEmit"},
		{failreport.Report{Type: failreport.FormatError, GateCommand: "gofmt -l ."}, "run the formatter: gofmt -w ."},
		{failreport.Report{Type: failreport.FormatError}, "run the formatter on the changed files"},
		{failreport.Report{Type: failreport.TaskIncomplete}, "finish the remaining tasks"},
		{failreport.Report{Type: failreport.VerificationMismatch, GateCommand: "go test ./..."}, "run the gate the agent's claim missed: go test ./..."},
		{failreport.Report{Type: failreport.Timeout}, "raise --phase-timeout"},
		{failreport.Report{Type: failreport.ParseError}, "result object"},
		{failreport.Report{Type: failreport.RateLimited}, "rate limit to reset"},
		{failreport.Report{Type: failreport.ContextExhausted}, "resume"},
		{failreport.Report{Type: failreport.AgentError}, "read the attempt log"},
		{failreport.Report{Type: failreport.DependencyMissing, MissingTool: "codex"}, "npm install -g @openai/codex"},
		{failreport.Report{Type: failreport.DependencyMissing, MissingTool: "aider"}, "python -m pip install aider-install && aider-install"},
		{failreport.Report{Type: failreport.DependencyMissing, MissingTool: "frobnicate"}, "install frobnicate and make sure it is on PATH"},
		{failreport.Report{Type: failreport.CircularDependency}, "Depends On"},
		{failreport.Report{Type: failreport.FileConflict}, "resume: the phase runs again from the start, on top of the work that landed first"},
		{failreport.Report{Type: failreport.PlanInvalid}, "fix the plan"},
		{failreport.Report{Type: failreport.TestFailure, Circular: true}, "the same fix was tried again"},
	}
	for _, tt := range tests {
		got := Suggest(tt.r)
		require.NotEmpty(t, got, string(tt.r.Type))
		require.Contains(t, got[0], tt.want, string(tt.r.Type))
	}
	fc := Suggest(failreport.Report{Type: failreport.FileConflict})
	require.Len(t, fc, 3)
	require.Contains(t, fc[1], "sequential")
	require.Contains(t, fc[2], "split the shared file")
	require.Contains(t, Suggest(failreport.Report{Type: failreport.Timeout}), "split the phase into smaller phases")
}

func TestSuggestCoversEveryType(t *testing.T) {
	t.Parallel()
	for _, typ := range allTypes {
		require.NotEmpty(t, Suggest(failreport.Report{Type: typ}), string(typ))
		require.NotEmpty(t, RetryGuidance(typ), string(typ))
	}
}

func TestInstallHint(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"go":            "https://go.dev/dl/",
		"npm":           "Node.js",
		"npx":           "Node.js",
		"node":          "Node.js",
		"python3":       "Python 3",
		"pytest":        "pip install pytest",
		"ruff":          "pip install ruff",
		"cargo":         "rustup",
		"golangci-lint": "go install github.com/golangci/golangci-lint",
		"claude":        "npm install -g @anthropic-ai/claude-code",
		"codex":         "npm install -g @openai/codex",
		"aider":         "python -m pip install aider-install && aider-install",
		// The newer CLIs, from their presets' rows too.
		"qwen":            "install Qwen Code: npm install -g @qwen-code/qwen-code",
		"opencode":        "install opencode: npm install -g opencode-ai",
		"copilot":         "install GitHub Copilot CLI: npm install -g @github/copilot",
		"pi":              "install pi: npm install -g @mariozechner/pi-coding-agent",
		"claude-code-acp": "npm install -g @zed-industries/claude-code-acp",
		"codex-acp":       "npm install -g @zed-industries/codex-acp",
		"":                "install the missing command",
	}
	for tool, want := range tests {
		require.Contains(t, InstallHint(tool), want, tool)
	}
}

func TestFormatterFix(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"gofmt -l .":                        "gofmt -w .",
		"test -z \"$(gofmt -l .)\"":         "",
		"npx prettier --check .":            "npx prettier --write .",
		"ruff format --check .":             "ruff format .",
		"black --check src":                 "black src",
		"cargo fmt --check":                 "cargo fmt",
		"cargo fmt --all -- --check":        "cargo fmt --all --",
		"dotnet format --verify-no-changes": "dotnet format",
		"make fmt-check":                    "",
		"":                                  "",
	}
	for check, want := range tests {
		require.Equal(t, want, formatterFix(check), check)
	}
}

func TestRetryGuidance(t *testing.T) {
	t.Parallel()
	require.Contains(t, RetryGuidance(failreport.VerificationMismatch), "Run ALL quality gates after EVERY change")
	require.Contains(t, RetryGuidance(failreport.TestFailure), "Fix the failing tests")
	require.Contains(t, RetryGuidance(failreport.Timeout), "timed out")
	require.Contains(t, RetryGuidance(failreport.ContextExhausted), "continue")
	require.True(t, strings.HasSuffix(RetryGuidance(failreport.DependencyMissing), "stop and report it."))
}

// TestVerificationMismatchNamesWorktree: the gate the agent's claim missed
// passes in your checkout (it lacks the phase's work): the advice says where
// it fails.
func TestVerificationMismatchNamesWorktree(t *testing.T) {
	t.Parallel()
	c, err := NewClassifier(nil)
	require.NoError(t, err)
	r := c.Classify(Evidence{AgentRan: true, ResultStatus: "complete", FilesChanged: []string{"check.sh"},
		Worktree: "/home/me/calc/.autobuild/worktrees/phase-2b",
		Gate:     &GateEvidence{Kind: "test", Command: "sh check.sh", ExitCode: 1, Output: "check failed"}})
	require.Equal(t, failreport.VerificationMismatch, r.Type)
	require.Equal(t, "run the gate the agent's claim missed in the phase's worktree, where it fails (your checkout does not have the phase's work): cd .autobuild/worktrees/phase-2b && sh check.sh",
		r.SuggestedActions[0])
}
