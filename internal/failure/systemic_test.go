package failure

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSystemic(t *testing.T) {
	t.Parallel()
	missing := func(tool, msg string) Report {
		return Report{Type: DependencyMissing, MissingTool: tool, Message: msg}
	}
	tests := []struct {
		name    string
		reports []Report
		want    string
	}{
		{"none", nil, ""},
		{"one failure", []Report{missing("claude", "claude not found")}, ""},
		{"same missing tool",
			[]Report{missing("claude", "claude not found (exit 127)"), missing("claude", "claude not found")},
			"2 phases failed for one cause: claude is not installed (dependency_missing); install Claude Code: npm install -g @anthropic-ai/claude-code, then resume"},
		{"same message",
			[]Report{{Type: RateLimited, Message: "rate limited by the model provider: 429"}, {Type: TestFailure, Message: "x"},
				{Type: RateLimited, Message: "rate limited by the model provider: 429"}},
			"2 phases failed for one cause (rate_limited): rate limited by the model provider: 429"},
		{"same message, different types",
			[]Report{{Type: LintError, Message: "m"}, {Type: TestFailure, Message: "m"}}, ""},
		{"different tools",
			[]Report{missing("go", "go not found"), missing("npm", "npm not found")}, ""},
		{"largest group wins",
			[]Report{{Type: AgentError, Message: "boom"}, {Type: AgentError, Message: "boom"},
				missing("go", "go not found"), missing("go", "go not found (exit 127)"), missing("go", "go not found")},
			"3 phases failed for one cause: go is not installed (dependency_missing); install Go: https://go.dev/dl/, then resume"},
		{"tool beats message on a tie",
			[]Report{missing("ruff", "ruff not found"), missing("ruff", "ruff not found")},
			"2 phases failed for one cause: ruff is not installed (dependency_missing); install Ruff: pip install ruff (or pipx install ruff), then resume"},
	}
	for _, tt := range tests {
		got, ok := Systemic(tt.reports)
		require.Equal(t, tt.want != "", ok, tt.name)
		require.Equal(t, tt.want, got, tt.name)
	}
}
