package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

const limitPlan = "# Limits\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Only | - |\n\n## Phase 1: Only\n\n- [ ] write done.txt\n\n## Quality Gates\n\n- test: `test -f done.txt`\n"

// limitScenario is a sim scenario whose first run of phase 1 stops at the
// limit step and whose next run does the work.
func limitScenario(t *testing.T, limit string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.json")
	writeFile(t, path, `{"phases": {"1": [
  {"steps": [{"say": "working"}, {"write": "half.txt", "content": "half\n"}, {"limit": "`+limit+`"}]},
  {"steps": [{"write": "done.txt", "content": "done\n"}], "result": {"status": "complete", "tasks": {"total": 1, "completed": 1}, "commit_message": "feat: done"}}
]}}`)
	return path
}

// The simulated agent's usage limit resetting in 1 s is waited out: one
// WAITING line (the time left is under 1 s on a loaded machine), the phase
// completes on attempt 1 of 2.
func TestSimUsageLimitIsWaitedOut(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, limitPlan)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "sim", "--scenario", limitScenario(t, "usage 1s"))
	require.Equal(t, 0, r.code, r.String())
	require.Regexp(t, `PHASE 1 WAITING \(attempt 1/2\) - usage limit · resumes \d\d:\d\d \(in (1s|\d{3}ms)\) with sim; does not use up the retry`, r.stdout)
	require.NotContains(t, r.stdout, "RETRYING")
	p := loadPhase(t, repo, "1")
	require.Equal(t, state.PhaseComplete, p.Status)
	require.Len(t, p.Attempts, 2)
	require.Equal(t, 1, p.Attempts[1].Number, "the wait used no retry")
}
