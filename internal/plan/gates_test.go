package plan

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Gates named the way plans name them ("Unit tests", "Type check") are read
// by the word that says their kind, and two gates of one kind (unit and
// end-to-end tests) both run, as one gate of that kind in plan order.
func TestParseGatesByNameAndKind(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "gates-by-name.md")
	require.NoError(t, err)
	require.Equal(t, []Gate{
		{Kind: "test", Command: "go test ./... && npx playwright test", Line: 9},
		{Kind: "typecheck", Command: "tsc --noEmit", Line: 10},
		{Kind: "lint", Command: "golangci-lint run", Line: 12},
	}, p.Gates)
}

func TestGateKind(t *testing.T) {
	t.Parallel()
	for written, want := range map[string]string{
		"test": "test", "Tests": "test", "Unit tests": "test", "E2E tests": "test", "integration-tests": "test",
		"Type check": "typecheck", "types": "typecheck", "Go build": "build", "Formatting": "format", "fmt": "format",
	} {
		got, ok := gateKind(written)
		require.True(t, ok, written)
		require.Equal(t, want, got, written)
	}
	for _, written := range []string{"deploy", "Docs", "run everything"} {
		_, ok := gateKind(written)
		require.False(t, ok, written)
	}
}
