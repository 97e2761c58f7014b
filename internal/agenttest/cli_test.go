package agenttest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// Each mock speaks its API as the real CLI uses it: the CLI, in its
// machine-readable mode, writes the file through its own tool, reaches the
// final message and exits 0, with exactly the two scripted requests.
func TestRealCLIsWriteThroughTheirMock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real agent CLIs: skipped with -short")
	}
	for _, api := range mockapi.APIs() {
		t.Run(string(api), func(t *testing.T) {
			t.Parallel()
			bin := Require(t, string(api))
			srv := mockapi.New(t, api, mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(SuccessText))
			dir := gittest.New(t, gittest.NoCommit())
			args, stdin := Args(string(api), Prompt, true, true)
			o := Exec(t, Invocation{Bin: bin, Args: args, Stdin: stdin, Dir: dir, Env: Env(t, srv, Options{Sandbox: true})})
			require.Equal(t, 0, o.Exit, "stdout:\n%s\nstderr:\n%s", o.Stdout, o.Stderr)
			b, err := os.ReadFile(filepath.Join(dir, "hello.txt"))
			require.NoError(t, err)
			require.Equal(t, "hello\n", string(b))
			require.Contains(t, o.Stdout, "feat(hello): add hello.txt", "the final message is in the stream")
			require.Len(t, srv.ModelRequests(), 2)
			require.Equal(t, 2, srv.Used())
		})
	}
}
