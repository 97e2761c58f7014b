package main

import (
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
