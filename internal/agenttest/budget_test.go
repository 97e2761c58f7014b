package agenttest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// TestRetryBudget runs each CLI with the retry settings autobuild gives it
// (and none of the recordings' own) against a mock that answers every
// request with a 429: claude makes RetryBudget+1 requests and exits, so
// autobuild's back-off, not claude's, paces a rate-limit storm. codex keeps
// its own short retries (at most 6 requests in a few seconds). gemini's
// cannot be set from outside its settings files (see preset.RetryBudget);
// it is measured by TestMeasureRetries.
func TestRetryBudget(t *testing.T) {
	want := map[string]int{"claude": preset.RetryBudget + 1, "codex": 6}
	for _, cli := range []string{"claude", "codex"} {
		t.Run(cli, func(t *testing.T) {
			t.Parallel()
			bin := Require(t, cli)
			replies := make([]mockapi.Reply, 30)
			for i := range replies {
				replies[i] = mockapi.Fail(mockapi.RateLimited)
			}
			srv := mockapi.New(t, mockapi.API(cli), replies...)
			work := gittest.New(t, gittest.NoCommit())
			a, err := agent.Resolve(cli, nil)
			require.NoError(t, err)
			env := Env(t, srv, Options{Sandbox: true, DefaultRetries: true})
			env = append(env, a.Env...)
			args := a.Args[1:]
			stdin := Prompt
			o := Exec(t, Invocation{Bin: bin, Args: args, Stdin: stdin, Dir: work, Env: env, Timeout: 40 * time.Second})
			n := len(srv.ModelRequests())
			t.Logf("BUDGET %s: exit %d after %.1f s, %d model requests", cli, o.Exit, o.Duration.Seconds(), n)
			require.NotZero(t, o.Exit)
			require.LessOrEqual(t, n, want[cli])
			if cli == "claude" {
				require.Equal(t, want[cli], n, "the CLI keeps to autobuild's budget")
			}
		})
	}
}
