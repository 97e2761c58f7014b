package failure

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

func TestSystemic(t *testing.T) {
	t.Parallel()
	missing := func(tool, msg string) failreport.Report {
		return failreport.Report{Type: failreport.DependencyMissing, MissingTool: tool, Message: msg}
	}
	tests := []struct {
		name    string
		reports []failreport.Report
		want    string
	}{
		{"none", nil, ""},
		{"one failure", []failreport.Report{missing("claude", "claude not found")}, ""},
		{"same missing tool",
			[]failreport.Report{missing("claude", "claude not found (exit 127)"), missing("claude", "claude not found")},
			"2 phases failed for one cause: claude is not installed (dependency_missing); install Claude Code: npm install -g @anthropic-ai/claude-code, then resume"},
		{"same message",
			[]failreport.Report{{Type: failreport.RateLimited, Message: "rate limited by the model provider: 429"}, {Type: failreport.TestFailure, Message: "x"},
				{Type: failreport.RateLimited, Message: "rate limited by the model provider: 429"}},
			"2 phases failed for one cause (rate_limited): rate limited by the model provider: 429"},
		{"same message, different types",
			[]failreport.Report{{Type: failreport.LintError, Message: "m"}, {Type: failreport.TestFailure, Message: "m"}}, ""},
		{"different tools",
			[]failreport.Report{missing("go", "go not found"), missing("npm", "npm not found")}, ""},
		{"largest group wins",
			[]failreport.Report{{Type: failreport.AgentError, Message: "boom"}, {Type: failreport.AgentError, Message: "boom"},
				missing("go", "go not found"), missing("go", "go not found (exit 127)"), missing("go", "go not found")},
			"3 phases failed for one cause: go is not installed (dependency_missing); install Go: https://go.dev/dl/, then resume"},
		{"tool beats message on a tie",
			[]failreport.Report{missing("ruff", "ruff not found"), missing("ruff", "ruff not found")},
			"2 phases failed for one cause: ruff is not installed (dependency_missing); install Ruff: pip install ruff (or pipx install ruff), then resume"},
	}
	for _, tt := range tests {
		got, ok := Systemic(tt.reports)
		require.Equal(t, tt.want != "", ok, tt.name)
		require.Equal(t, tt.want, got, tt.name)
	}
}
