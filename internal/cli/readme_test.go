package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmePrerequisites keeps the README's first hour true: its two first
// commands, the Go version go.mod asks for, the C compiler -race needs, and
// building from source before the install line (the module proxy does not
// serve the module until it is published).
func TestReadmePrerequisites(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	gomod, err := os.ReadFile("../../go.mod")
	require.NoError(t, err)
	text := string(readme)

	first := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(text)
	require.NotNil(t, first)
	require.Contains(t, first[1], "go run ./cmd/autobuild demo")
	require.Contains(t, first[1], "go test -race ./...")

	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(gomod))
	require.NotNil(t, goVersion)
	require.Contains(t, text, "Go "+goVersion[1]+" or newer")
	require.Contains(t, text, "cgo")
	require.Contains(t, text, "C compiler")

	build := strings.Index(text, "go build -o autobuild ./cmd/autobuild")
	install := strings.Index(text, "@latest")
	require.True(t, build >= 0 && install > build, "building from source comes before the install line")
}
