package prompts

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

func promptPhase() *plan.Phase {
	return &plan.Phase{
		ID: "2a", DisplayID: "2A", Name: "Backend API", Tasks: 3,
		Body: "## Phase 2A: Backend API\n\n- [ ] Add the login endpoint\n- [ ] Test it\n- [ ] Document it\n\n```go\nfunc Login() {}\n```\n",
	}
}

func promptInput() Input {
	return Input{
		PlanPath: "docs/plan.md", PlanTitle: "Auth Feature", Phase: promptPhase(),
		Gates: []plan.Gate{{Kind: "build", Command: "go build ./..."}, {Kind: "test", Command: "go test ./..."}},
		Siblings: []*plan.Phase{
			{ID: "2b", DisplayID: "2B", Name: "Frontend", Files: []string{"web/login.tsx", "web/api.ts"}},
			{ID: "2c", DisplayID: "2C", Name: "Docs"},
		},
		Attempt: 1, MaxAttempts: 2,
	}
}

func TestBuildPromptFirstAttempt(t *testing.T) {
	t.Parallel()
	got := Build(promptInput())
	for _, want := range []string{
		"Phase 2A: Backend API", `"Auth Feature"`, "`docs/plan.md`", "attempt 1 of 2",
		// The section verbatim, its own code fence intact.
		promptPhase().Body,
		"- build: `go build ./...`", "- test: `go test ./...`", "You are done when these pass",
		"Phase 2B: Frontend (files: web/login.tsx, web/api.ts)", "- Phase 2C: Docs\n",
		"Touch only the files that belong to your phase",
		"Do not commit", "Do not edit the plan (`docs/plan.md`)", "Do not touch `.autobuild/`",
		"```json\n{\n  \"phase_id\": \"2a\"", `"tasks": {"total": 3, "completed": 3}`, `"commit_message"`,
		`"created"`, `"modified"`, `"deleted"`, `"error": null`,
	} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "Previous attempt failed")
}

func TestBuildPromptExampleIsAResult(t *testing.T) {
	t.Parallel()
	// The example the prompt shows must itself parse, or an agent that
	// copies it verbatim would fail with parse_error.
	in := promptInput()
	r, err := agent.ParseResult(Build(in)[:strings.Index(Build(in), "- `status`")])
	require.NoError(t, err)
	require.Equal(t, "2a", r.PhaseID)
	require.Equal(t, agent.StatusComplete, r.Status)
}

func TestBuildPromptVerbatimBodyWithLongFences(t *testing.T) {
	t.Parallel()
	in := promptInput()
	in.Phase.Body = "## Phase 2A: X\n\n````md\n```go\nx\n```\n````\n"
	got := Build(in)
	require.Contains(t, got, "`````markdown\n"+strings.TrimRight(in.Phase.Body, "\n")+"\n`````\n")
}

// A retry names the siblings that already landed, so the agent keeps off
// their files although they no longer run.
func TestBuildPromptNamesLandedSiblings(t *testing.T) {
	t.Parallel()
	in := promptInput()
	in.Siblings, in.Landed = in.Siblings[1:], in.Siblings[:1]
	got := Build(in)
	require.Contains(t, got, "These phases run at the same time, each in its own worktree:\n\n- Phase 2C: Docs\n")
	require.Contains(t, got, "already done; their work is merged with yours afterwards:\n\n- Phase 2B: Frontend (files: web/login.tsx, web/api.ts)\n")
	require.Contains(t, got, "leave the files of the phases above alone")

	in.Siblings = nil
	got = Build(in)
	require.NotContains(t, got, "run at the same time")
	require.Contains(t, got, "- Phase 2B: Frontend")

	// Under the eager schedule there is no batch to speak of.
	in.Eager = true
	got = Build(in)
	require.Contains(t, got, "These phases ran alongside yours and are already done; their work is merged with yours afterwards:\n\n- Phase 2B: Frontend")
	require.NotContains(t, got, "batch")
}

func TestBuildPromptWithoutGatesOrSiblings(t *testing.T) {
	t.Parallel()
	in := promptInput()
	in.Gates, in.Siblings = nil, nil
	got := Build(in)
	require.Contains(t, got, "No quality gates are configured")
	require.NotContains(t, got, "running alongside")
}

func TestBuildPromptRetry(t *testing.T) {
	t.Parallel()
	in := promptInput()
	in.Attempt, in.Continues = 2, true
	in.PreviousDiffPath = ".autobuild/logs/phase-2a.attempt-1.diff"
	in.Previous = []failreport.Report{
		{Type: failreport.LintError, Message: "lint gate failed", Attempt: 1},
		{
			Type: failreport.TestFailure, Message: "test gate failed: 2 tests failing", Attempt: 1,
			Details: "TestLogin expected 200, got 401", Gate: "test", GateCommand: "go test ./...",
			GateOutput:    "--- FAIL: TestLogin (0.00s)\n    login_test.go:14: expected 200, got 401\nFAIL",
			FailingTests:  []string{"TestLogin", "TestLogout"},
			WorkCompleted: []string{"2/3 tasks"}, FilesChanged: []string{"api/login.go", "api/login_test.go"},
			SuggestedActions: []string{"fix the failing tests: TestLogin, TestLogout"},
		},
	}
	got := Build(in)
	for _, want := range []string{
		"attempt 2 of 2", "## Previous attempt failed",
		"Its changes are already in this directory: continue on top of them",
		"`.autobuild/logs/phase-2a.attempt-1.diff`",
		"- Type: test_failure", "- Message: test gate failed: 2 tests failing",
		"- Failing gate: test: `go test ./...`", "- Failing tests: TestLogin, TestLogout",
		"- Work completed: 2/3 tasks", "- Files changed: api/login.go, api/login_test.go",
		"TestLogin expected 200, got 401", "login_test.go:14: expected 200, got 401",
		"Fix the failing tests (TestLogin, TestLogout). The errors are in login_test.go.",
		"- fix the failing tests: TestLogin, TestLogout",
		"### Earlier attempts", "- attempt 1: lint_error: lint gate failed",
	} {
		require.Contains(t, got, want)
	}
	// The retry section comes after the rules and the result format.
	require.Greater(t, strings.Index(got, "Previous attempt failed"), strings.Index(got, "End with a result object"))
}

// A retry whose worktree could not be kept still carries the failure, but
// does not claim the first attempt's changes are there.
func TestBuildPromptRetryInAFreshWorktree(t *testing.T) {
	t.Parallel()
	in := promptInput()
	in.Attempt = 2
	in.PreviousDiffPath = "/repo/.autobuild/logs/phase-2a.attempt-1.diff"
	in.Previous = []failreport.Report{{Type: failreport.TestFailure, Message: "test gate failed", Attempt: 1}}
	got := Build(in)
	require.Contains(t, got, "## Previous attempt failed")
	require.Contains(t, got, "starts again from the phase's base, without its changes")
	require.Contains(t, got, "`/repo/.autobuild/logs/phase-2a.attempt-1.diff`")
	require.NotContains(t, got, "already in this directory")
}

// A first attempt carries the failure it follows only when it continues an
// earlier attempt's work (a rate-limited attempt repeated): the history of
// an earlier run alone does not make a fresh worktree a continuation.
func TestBuildPromptRepeatOfAFirstAttempt(t *testing.T) {
	t.Parallel()
	in := promptInput()
	in.Attempt = 1
	in.Previous = []failreport.Report{{Type: failreport.RateLimited, Message: "rate limited by the model provider: 429", Attempt: 1}}
	require.NotContains(t, Build(in), "Previous attempt failed", "a fresh worktree after a resume")

	in.Continues = true
	got := Build(in)
	require.Contains(t, got, "## Previous attempt failed")
	require.Contains(t, got, "- Type: rate_limited")
	require.Contains(t, got, "Continue the work from where it stopped")
}

func TestGuidance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r    failreport.Report
		want []string
	}{
		{failreport.Report{Type: failreport.LintError, GateCommand: "ruff check ."}, []string{"Run `ruff check .`", "`ruff check . --fix`"}},
		{failreport.Report{Type: failreport.TypecheckError, GateCommand: "npm run typecheck", GateOutput: "src/a.ts(3,1): error\nsrc/b.go:4:2: undefined: x"},
			[]string{"Fix the type and build errors", "`npm run typecheck`", "src/b.go"}},
		{failreport.Report{Type: failreport.FormatError, GateCommand: `test -z "$(gofmt -l .)"`}, []string{"`gofmt -w .`"}},
		{failreport.Report{Type: failreport.FormatError, GateCommand: "cargo fmt --check"}, []string{"(`cargo fmt`)"}},
		{failreport.Report{Type: failreport.FormatError, GateCommand: "npx prettier --check ."}, []string{"`npx prettier --write .`"}},
		{failreport.Report{Type: failreport.TaskIncomplete, WorkCompleted: []string{"3/5 tasks"}}, []string{"(3/5 tasks)", "remaining tasks"}},
		{failreport.Report{Type: failreport.VerificationMismatch, GateCommand: "go test ./..."}, []string{"reported success but verification failed", "Run ALL quality gates",
			"it changed no file: the phase's work is still to be done"}},
		{failreport.Report{Type: failreport.VerificationMismatch, GateCommand: "go test ./...", FilesChanged: []string{"a.go"}},
			[]string{"reported success but verification failed (`go test ./...` failed). Run ALL quality gates"}},
		{failreport.Report{Type: failreport.TypecheckError, Gate: "test", GateCommand: "go test ./...", GateOutput: "./calc_test.go:6:12: undefined: Add\nFAIL\tx [build failed]"},
			[]string{"The build is broken: the code does not compile, so the test gate's checks never ran", "Fix the build errors first", "`go test ./...`", "calc_test.go"}},
		{failreport.Report{Type: failreport.Timeout}, []string{"timed out", "targeted tests"}},
		{failreport.Report{Type: failreport.ParseError}, []string{"fenced json block"}},
		{failreport.Report{Type: failreport.RateLimited}, []string{"rate limit"}},
		{failreport.Report{Type: failreport.ContextExhausted}, []string{"ran out of context", "continue from there"}},
		{failreport.Report{Type: failreport.AgentError}, []string{"Find the cause"}},
		{failreport.Report{Type: failreport.FileConflict}, []string{"failed with file_conflict"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.r.Type), func(t *testing.T) {
			t.Parallel()
			got := Guidance(tt.r)
			for _, w := range tt.want {
				require.Contains(t, got, w)
			}
		})
	}
}
