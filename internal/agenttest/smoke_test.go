package agenttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
)

func TestSmokeSuccess(t *testing.T) {
	for _, api := range mockapi.APIs() {
		t.Run(string(api), func(t *testing.T) {
			t.Parallel()
			bin := Require(t, string(api))
			srv := mockapi.New(t, api, mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text("done\n\n```json\n{\"phase_id\":\"1\",\"status\":\"complete\"}\n```"))
			dir := t.TempDir()
			require.NoError(t, exec.Command("git", "init", "-q", dir).Run())
			args, stdin := Args(string(api), "write hello.txt", true, true)
			o := Exec(t, Invocation{Bin: bin, Args: args, Stdin: stdin, Dir: dir, Env: append(Env(t, srv, Options{}), "IS_SANDBOX=1")})
			t.Logf("exit %d in %s\nstdout:\n%s\nstderr:\n%s", o.Exit, o.Duration, o.Stdout, o.Stderr)
			for _, r := range srv.Requests() {
				t.Logf("%s %s reply=%d", r.Method, r.Path, r.Reply)
			}
			b, err := os.ReadFile(filepath.Join(dir, "hello.txt"))
			require.NoError(t, err)
			require.Equal(t, "hello\n", string(b))
		})
	}
}
