package agenttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// pi (--mode json, no ACP) through the engine against the OpenAI mock:
// the same cases as the ACP agents. With -record, each case's stdout is
// kept in testdata/agents/pi for the parser's tests.
func TestPiThroughTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real agent CLIs: skipped with -short")
	}
	all := allACPCases()
	for _, c := range acpCases() {
		if !all && c.name != "success" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := mockapi.New(t, mockapi.OpenAI, c.replies...)
			a, err := agent.Resolve("pi --provider mock --model "+MockModel, nil)
			require.NoError(t, err)
			a.Args[0] = Require(t, "pi")
			a.Env = append(a.Env, OpenAIEnv(t, srv, "pi", Options{})...)
			res, ps := runACPEngine(t, a, nil)
			defer func() {
				if t.Failed() {
					for i := range ps.Attempts {
						t.Logf("attempt %d log:\n%s", i+1, acpLog(t, res.Root, ps, i))
					}
				}
			}()
			c.check(t, string(res.Status), ps)
			if *record {
				b, err := os.ReadFile(filepath.Join(res.Root, strings.TrimSuffix(ps.Attempts[0].LogPath, ".log")+".stream"))
				require.NoError(t, err)
				dir := filepath.Join(fixtureDir, "pi")
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, c.name+".stdout"), b, 0o644))
			}
		})
	}
	// Ctrl-C while the model is thinking: the process group is stopped,
	// nothing is left.
	t.Run("interrupt", func(t *testing.T) {
		if !all {
			t.Skip("AUTOBUILD_ACP_CASES=all runs it")
		}
		t.Parallel()
		srv := mockapi.New(t, mockapi.OpenAI, mockapi.Text(SuccessText).After(time.Minute))
		a, err := agent.Resolve("pi --provider mock --model "+MockModel, nil)
		require.NoError(t, err)
		a.Args[0] = Require(t, "pi")
		a.Env = append(a.Env, OpenAIEnv(t, srv, "pi", Options{})...)
		interrupt := make(chan struct{})
		go func() {
			for len(srv.ModelRequests()) == 0 {
				time.Sleep(50 * time.Millisecond)
			}
			close(interrupt)
		}()
		res, _ := runACPEngine(t, a, interrupt)
		require.Equal(t, state.RunInterrupted, res.Status)
		require.Empty(t, processesWith(homeOf(a)), "no agent process is left")
	})
}
