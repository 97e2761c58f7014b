package failure

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExcerpt(t *testing.T) {
	t.Parallel()
	require.Equal(t, "a\nb", Excerpt("a\nb\n\n"))
	require.Equal(t, "red", Excerpt("\x1b[31mred\x1b[0m"))
	require.Equal(t, "a\nb", Excerpt("a\rb"), "carriage returns (progress bars) become lines")

	var long []string
	for i := range 100 {
		long = append(long, fmt.Sprintf("line %d", i))
	}
	ex := Excerpt(strings.Join(long, "\n"))
	lines := strings.Split(ex, "\n")
	require.Equal(t, "…", lines[0])
	require.Len(t, lines, 41)
	require.Equal(t, "line 60", lines[1])
	require.Equal(t, "line 99", lines[40])

	wide := strings.Repeat("é", 3000) + "\nlast"
	ex = Excerpt(wide)
	require.LessOrEqual(t, len(ex), 4096+len("…\n"))
	require.Equal(t, "…\nlast", ex, "cut at a line boundary")

	oneLine := strings.Repeat("é", 3000)
	ex = Excerpt(oneLine)
	require.True(t, strings.HasPrefix(ex, "…\né"), "cut at a rune boundary")
}

func TestCommandWords(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"go", "test", "..."}, commandWords("GOFLAGS=-mod=mod go test -race ./..."))
	require.Equal(t, []string{"npm", "ci", "npx", "eslint", "."}, commandWords("npm ci && npx eslint ."))
	require.Equal(t, []string{"golangci-lint", "run"}, commandWords("/usr/local/bin/golangci-lint run"))
	require.Equal(t, "go", program("CGO_ENABLED=0 go build ./..."))
	require.Equal(t, "claude", program("'/usr/bin/claude' -p"))
	require.Equal(t, "", program(""))
}

func TestShorten(t *testing.T) {
	t.Parallel()
	s := shorten(strings.Repeat("x", 500))
	require.Equal(t, 200, len([]rune(s)))
	require.True(t, strings.HasSuffix(s, "…"))
}
