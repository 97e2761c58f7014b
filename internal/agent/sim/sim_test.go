package sim

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// TestMain lets the tests run the simulated agent as a real process: the
// test binary re-executes itself with simChildEnv set.
func TestMain(m *testing.M) {
	if os.Getenv(simChildEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const simChildEnv = "AUTOBUILD_AGENT_TEST_SIM_CHILD"

// envMap turns a map into Main's env function.
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// playIn plays a scenario's attempt for phase and attempt in dir, with no
// real waiting, and returns the output, stderr, exit status and the waits.
func playIn(t *testing.T, dir, scenario string, phase phaseid.ID, attempt int) (string, string, int, []time.Duration) {
	t.Helper()
	sc, err := ParseScenario([]byte(scenario))
	require.NoError(t, err)
	var out, errb bytes.Buffer
	var waits []time.Duration
	p := player{dir: dir, stdout: &out, stderr: &errb, speed: 1, phase: phase,
		sleep: func(d time.Duration) { waits = append(waits, d) }}
	code := p.play(sc.Pick(phase, attempt))
	return out.String(), errb.String(), code, waits
}

const simScenario = `{
  "phases": {
    "1": [
      {"steps": [
        {"say": "Reading the phase", "delay": "150ms"},
        {"write": "calc/calc.go", "content": "package calc\n"},
        {"append": "calc/calc.go", "content": "// more\n"},
        {"append": "notes/new.txt", "content": "hello"},
        {"delete": "old.go"},
        {"delete": "never-existed.go"},
        {"sleep": "2s"},
        {"say": "Done"}
       ],
       "stderr": ["warning: something"],
       "result": {"status": "complete", "tasks": {"total": 2, "completed": 2}}},
      {"steps": [{"say": "second attempt"}], "exit": 4}
    ]
  }
}`

func TestSimPlaysAnAttempt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "old.go"), []byte("x"), 0o644))
	out, errOut, code, waits := playIn(t, dir, simScenario, "1", 1)
	require.Equal(t, 0, code)
	require.Equal(t, []time.Duration{150 * time.Millisecond, 2 * time.Second}, waits)
	require.True(t, strings.HasPrefix(out, "Reading the phase\nDone\n```json\n"), out)
	require.Equal(t, "warning: something\n", errOut)

	b, err := os.ReadFile(filepath.Join(dir, "calc", "calc.go"))
	require.NoError(t, err)
	require.Equal(t, "package calc\n// more\n", string(b))
	b, err = os.ReadFile(filepath.Join(dir, "notes", "new.txt"))
	require.NoError(t, err)
	require.Equal(t, "hello", string(b))
	require.NoFileExists(t, filepath.Join(dir, "old.go"))

	// The printed result parses, with the phase id filled in.
	r, err := agent.ParseResult(out)
	require.NoError(t, err)
	require.Equal(t, &agent.Result{PhaseID: "1", Status: "complete", Tasks: agent.ResultTasks{Total: 2, Completed: 2}}, r)
}

func TestSimAttemptSelection(t *testing.T) {
	t.Parallel()
	for _, attempt := range []int{2, 3} {
		out, _, code, _ := playIn(t, t.TempDir(), simScenario, "1", attempt)
		require.Equal(t, 4, code)
		require.Equal(t, "second attempt\n", out)
	}
	// An unknown phase plays the built-in default: a few lines, success.
	out, _, code, _ := playIn(t, t.TempDir(), simScenario, "9", 1)
	require.Equal(t, 0, code)
	require.Contains(t, out, "phase 9, attempt 1")
	require.GreaterOrEqual(t, strings.Count(out, "\n"), 3)
}

func TestSimFailsOnAStepItCannotDo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A file where a directory is needed.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "calc"), []byte("x"), 0o644))
	_, errOut, code, _ := playIn(t, dir, `{"default": {"steps": [{"write": "calc/x.go", "content": "y"}]}}`, "1", 1)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "sim-agent: step 1")
}

func TestSimMain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"phases": {"2a": [{"steps": [{"say": "hi", "delay": "1h"}], "exit": 7}]}}`), 0o644))
	env := map[string]string{agent.EnvSimScenario: path, agent.EnvPhaseID: "2A", agent.EnvAttempt: "1", agent.EnvSimSpeed: "1e9"}
	var out, errb bytes.Buffer
	stdin := strings.NewReader("the prompt\n")
	code := Main(nil, envMap(env), stdin, &out, &errb)
	require.Equal(t, 7, code, errb.String())
	require.Equal(t, "hi\n", out.String())
	require.Zero(t, stdin.Len(), "the prompt is read")

	// No scenario: the built-in default succeeds.
	out.Reset()
	code = Main(nil, envMap(map[string]string{agent.EnvPhaseID: "1", agent.EnvSimSpeed: "1e9"}), nil, &out, &errb)
	require.Equal(t, 0, code)
	require.Contains(t, out.String(), "Done")
}

func TestSimMainRejectsABadScenario(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := map[string]string{
		"malformed": `{"phases": `,
		"escape":    `{"default": {"steps": [{"write": "../../etc/x", "content": "y"}]}}`,
	}
	for name, content := range tests {
		path := filepath.Join(dir, name+".json")
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		var out, errb bytes.Buffer
		code := Main(nil, envMap(map[string]string{agent.EnvSimScenario: path, agent.EnvPhaseID: "1"}), nil, &out, &errb)
		require.Equal(t, 2, code, name)
		require.Contains(t, errb.String(), "sim-agent: "+path, name)
		require.Empty(t, out.String(), name)
	}
	var errb bytes.Buffer
	code := Main(nil, envMap(map[string]string{agent.EnvSimScenario: filepath.Join(dir, "missing.json")}), nil, &bytes.Buffer{}, &errb)
	require.Equal(t, 2, code)
	require.Contains(t, errb.String(), "missing.json")

	// An explicit path argument overrides the environment; extra arguments
	// are a usage error.
	require.Equal(t, 2, Main([]string{filepath.Join(dir, "malformed.json")}, envMap(nil), nil, &bytes.Buffer{}, &bytes.Buffer{}))
	require.Equal(t, 2, Main([]string{"a", "b"}, envMap(nil), nil, &bytes.Buffer{}, &bytes.Buffer{}))
}

// simProcess starts the simulated agent as a process of its own in dir,
// with its standard output on a pipe.
func simProcess(t *testing.T, dir, scenario string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	path := filepath.Join(dir, "scenario.json")
	require.NoError(t, os.WriteFile(path, []byte(scenario), 0o644))
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), simChildEnv+"=1", agent.EnvSimScenario+"="+path, agent.EnvPhaseID+"=1", agent.EnvAttempt+"=1")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, bufio.NewReader(stdout)
}

// readLine waits for the process's next output line.
func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	l, err := r.ReadString('\n')
	require.NoError(t, err)
	return l
}

func TestSimHangAndIgnoreSigterm(t *testing.T) {
	t.Parallel()
	// hang: the process outlives its steps until a signal stops it.
	cmd, out := simProcess(t, t.TempDir(), `{"default": {"steps": [{"say": "working"}], "hang": true}}`)
	require.Equal(t, "working\n", readLine(t, out))
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, syscall.SIGTERM, ee.Sys().(syscall.WaitStatus).Signal())

	// ignore_sigterm: SIGTERM does nothing, SIGKILL does. The first line
	// shows the agent is past the point where it ignores SIGTERM.
	cmd, out = simProcess(t, t.TempDir(), `{"default": {"steps": [{"say": "ready"}], "hang": true, "ignore_sigterm": true}}`)
	require.Equal(t, "ready\n", readLine(t, out))
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the agent exited on SIGTERM: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, cmd.Process.Kill())
	err = <-done
	require.ErrorAs(t, err, &ee)
	require.Equal(t, syscall.SIGKILL, ee.Sys().(syscall.WaitStatus).Signal())
}

func TestSimProcessWritesInItsDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd, out := simProcess(t, dir, `{"default": {"steps": [{"say": "writing"}, {"write": "src/a.txt", "content": "A"}], "exit": 5}}`)
	all, err := io.ReadAll(out)
	require.NoError(t, err)
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 5, ee.ExitCode())
	require.Equal(t, "writing\n", string(all))
	b, err := os.ReadFile(filepath.Join(dir, "src", "a.txt"))
	require.NoError(t, err)
	require.Equal(t, "A", string(b))
}
