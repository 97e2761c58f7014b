package failure

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFailingTests(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, output string
		want         []string
	}{
		{"go", "=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n--- PASS: TestMul (0.00s)\n--- FAIL: TestSub (0.01s)\nFAIL\n",
			[]string{"TestAdd", "TestSub"}},
		{"go subtests count once", "--- FAIL: TestCalc (0.00s)\n    --- FAIL: TestCalc/add (0.00s)\n    --- FAIL: TestCalc/sub (0.00s)\n",
			[]string{"TestCalc/add", "TestCalc/sub"}},
		{"go repeated (-count=2)", "--- FAIL: TestA (0.00s)\n--- FAIL: TestA (0.00s)\n", []string{"TestA"}},
		{"pytest", "FAILED tests/test_x.py::test_y - assert 1 == 2\nFAILED tests/test_x.py::TestK::test_z\n=== 2 failed ===",
			[]string{"tests/test_x.py::test_y", "tests/test_x.py::TestK::test_z"}},
		{"jest", "  auth\n    ✓ logs in (3 ms)\n    ✕ validates token (5 ms)\n    ✕ refreshes token\n",
			[]string{"validates token", "refreshes token"}},
		{"vitest", "   × adds numbers 2ms\n   × handles (1.5 s)\n", []string{"adds numbers", "handles"}},
		{"cargo", "test tests::adds ... ok\ntest tests::subs ... FAILED\ntest tests::muls ... FAILED\n",
			[]string{"tests::subs", "tests::muls"}},
		{"colored", "\x1b[31m--- FAIL: TestRed (0.00s)\x1b[0m\n", []string{"TestRed"}},
		{"mixed, in output order", "test a ... FAILED\n--- FAIL: TestB (0s)\n", []string{"a", "TestB"}},
		{"none", "ok  example.com/x 0.1s\n", nil},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, FailingTests(tt.output), tt.name)
	}
}

func TestMissingTool(t *testing.T) {
	t.Parallel()
	tests := []struct{ text, want string }{
		{"sh: 1: claude: not found", "claude"},
		{"bash: line 1: golangci-lint: command not found", "golangci-lint"},
		{"bash: jq: command not found", "jq"},
		{"zsh: command not found: aider", "aider"},
		{`exec: "codex": executable file not found in $PATH`, "codex"},
		{`exec: "/opt/bin/gemini": executable file not found in $PATH`, "gemini"},
		{"/usr/bin/env: 'node': No such file or directory", "node"},
		{"/usr/bin/python3: No module named pytest", "pytest"},
		{"ModuleNotFoundError: No module named 'requests'", "requests"},
		{"sh: 1: a: not found\nsh: 1: b: not found", "b"},
		{"all good", ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, MissingTool(tt.text), tt.text)
	}
}
