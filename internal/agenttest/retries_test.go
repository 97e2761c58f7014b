package agenttest

import (
	"flag"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/gittest"
)

var measureRetries = flag.Bool("measure-retries", false, "measure each real CLI's own retries with its default settings (slow: minutes)")

// TestMeasureRetries runs each CLI with its default retry settings against a
// mock that always fails, and logs how many requests it made and how long it
// took: the figures in testdata/agents/README.md.
//
//	go test ./internal/agenttest/ -run TestMeasureRetries -measure-retries -v
func TestMeasureRetries(t *testing.T) {
	if !*measureRetries {
		t.Skip("measures the CLIs' own retries only with -measure-retries")
	}
	for _, api := range mockapi.APIs() {
		for _, f := range []mockapi.Failure{mockapi.Unauthorized, mockapi.RateLimited, mockapi.Overloaded} {
			t.Run(string(api)+"/"+string(f), func(t *testing.T) {
				t.Parallel()
				bin := Require(t, string(api))
				replies := make([]mockapi.Reply, 30)
				for i := range replies {
					replies[i] = mockapi.Fail(f)
				}
				srv := mockapi.New(t, api, replies...)
				work := gittest.New(t, gittest.NoCommit())
				env := Env(t, srv, Options{Sandbox: true, DefaultRetries: true})
				args, stdin := Args(string(api), Prompt, true, true)
				o := Exec(t, Invocation{Bin: bin, Args: args, Stdin: stdin, Dir: work, Env: env, Timeout: 10 * time.Minute})
				t.Logf("RETRIES %s %s: exit %d after %.1f s, %d model requests", api, f, o.Exit, o.Duration.Seconds(), len(srv.ModelRequests()))
			})
		}
	}
}
