package adapters

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// codex shows its commands as `/bin/bash -lc "…"`, escaping the command's
// own double quotes: the tool line shows the command as bash runs it, with
// no stray quote or backslash.
func TestUnwrapShell(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		// As recorded from codex 0.169.0 writing `var s = "a\"b"`.
		"/bin/bash -lc \"mkdir -p calc && printf '%s' 'package calc\n\nvar s = \\\"a\\\\\\\"b\\\"\n' > calc/x.go\"": "mkdir -p calc && printf '%s' 'package calc\n\nvar s = \"a\\\"b\"\n' > calc/x.go",
		`/bin/bash -lc "mkdir -p \"calc dir\" && go test ./..."`:                                                    "mkdir -p \"calc dir\" && go test ./...",
		`/bin/bash -lc "echo \"hi\""`:          `echo "hi"`,
		`bash -lc 'go test ./...'`:             `go test ./...`,
		`bash -lc 'echo it'"'"'s'`:             `echo it's`,
		`/bin/bash -lc "mkdir -p calc && echo`: `mkdir -p calc && echo`,
		`/bin/bash -lc "a" "b"`:                `"a" "b"`,
		`/bin/bash -lc ls`:                     `ls`,
		`go test ./...`:                        `go test ./...`,
		`/bin/bash -lc "printf \"%s\" \$HOME"`: `printf "%s" $HOME`,
	}
	for in, want := range cases {
		require.Equal(t, want, unwrapShell(in), "%s", in)
	}
}
