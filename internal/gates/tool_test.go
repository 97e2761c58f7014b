package gates

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestToolOf(t *testing.T) {
	t.Parallel()
	tests := []struct{ command, want string }{
		{"go test ./...", "go"},
		{"  npm   run lint", "npm"},
		{"GOFLAGS=-mod=mod CGO_ENABLED=0 go build ./...", "go"},
		{"env GOOS=linux go vet ./...", "go"},
		{"env -i PATH=/bin make check", "make"},
		{"time go test ./...", "go"},
		{"timeout 300 go test ./...", "go"},
		{"timeout -k 5 300 cargo test", "cargo"},
		{"nice -n 10 pytest", "pytest"},
		{`sh -c "go test ./... && go vet ./..."`, "go"},
		{`bash -c 'FOO=1 ruff check .'`, "ruff"},
		{"cd web && pnpm run build", "pnpm"},
		{"cd web; npm test", "npm"},
		{`test -z "$(gofmt -l .)"`, "gofmt"},
		{"[ -z \"`gofmt -l .`\" ]", "gofmt"},
		{`test -f go.mod`, "test"},
		{"./scripts/check.sh --all", "./scripts/check.sh"},
		{`"my tool" --x`, "my tool"},
		{`my\ tool --x`, "my tool"},
		{"make lint|tee out.log", "make"},
		{"", ""},
		{"FOO=1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, ToolOf(tt.command))
		})
	}
}

func TestSplitWords(t *testing.T) {
	t.Parallel()
	got := splitWords(`a "b c" 'd e'&&f|g; x$(y "z)") \"q`)
	var texts []string
	for _, w := range got {
		texts = append(texts, w.text)
	}
	require.Equal(t, []string{"a", "b c", "d e", "&&", "f", "|", "g", ";", `x$(y "z)")`, `"q`}, texts)
}
