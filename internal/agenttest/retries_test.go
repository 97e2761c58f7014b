package agenttest

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
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
				work := t.TempDir()
				require.NoError(t, exec.Command("git", "init", "-q", work).Run())
				env := defaultRetries(Env(t, srv, Options{Sandbox: true}))
				args, stdin := Args(string(api), Prompt, true, true)
				o := Exec(t, Invocation{Bin: bin, Args: args, Stdin: stdin, Dir: work, Env: env, Timeout: 10 * time.Minute})
				t.Logf("RETRIES %s %s: exit %d after %.1f s, %d model requests", api, f, o.Exit, o.Duration.Seconds(), len(srv.ModelRequests()))
			})
		}
	}
}

// defaultRetries undoes Env's retry settings: claude's variable goes, and
// codex's and gemini's config lose their retry lines.
func defaultRetries(env []string) []string {
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_MAX_RETRIES=") })
	for _, kv := range env {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			stripRetryConfig(home)
		}
	}
	return env
}

// stripRetryConfig takes the retry settings out of the config files Env wrote under home.
func stripRetryConfig(home string) {
	edit := func(path string, drop func(line string) bool, replace [2]string) {
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		var keep []string
		for _, line := range strings.Split(string(b), "\n") {
			if !drop(line) {
				keep = append(keep, line)
			}
		}
		out := strings.ReplaceAll(strings.Join(keep, "\n"), replace[0], replace[1])
		_ = os.WriteFile(path, []byte(out), 0o644)
	}
	edit(filepath.Join(home, ".codex", "config.toml"), func(l string) bool { return strings.Contains(l, "_max_retries") }, [2]string{})
	edit(filepath.Join(home, ".gemini", "settings.json"), func(string) bool { return false }, [2]string{`, "maxAttempts": 1`, ""})
}
