package wtenv

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMatcher(t *testing.T) {
	m := newMatcher([]string{"# comment", "", ".env*", "node_modules/", "/build/gen/", "!.env.example", "packages/**/dist", "*.local"})
	cases := []struct {
		path string
		dir  bool
		want bool
	}{
		{".env", false, true},
		{".env.local", false, true},
		{".env.example", false, false},
		{"sub/.env", false, true},
		{"node_modules", true, true},
		{"node_modules", false, false}, // a file named so: the pattern takes folders only
		{"web/node_modules", true, true},
		{"web/node_modules/x/index.js", false, true},
		{"build/gen", true, true},
		{"build/gen/a.go", false, true},
		{"x/build/gen", true, false}, // anchored
		{"packages/a/b/dist", true, true},
		{"config.local", false, true},
		{"README.md", false, false},
	}
	for _, c := range cases {
		require.Equal(t, c.want, m.match(c.path, c.dir), "%s (dir %v)", c.path, c.dir)
	}
	require.True(t, newMatcher([]string{"#x", "  "}).empty())
}
