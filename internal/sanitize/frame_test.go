package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFrameKeepsColoursOnly(t *testing.T) {
	t.Parallel()
	styled := "\x1b[1;38;5;42mautobuild\x1b[0m · plan\n\x1b[2m 1 \x1b[0m phase"
	require.Equal(t, styled, Frame(styled), "a frame of colours is kept as it is")
	for _, h := range hostile {
		got := Frame("\x1b[1m" + h.in + "\x1b[0m\nnext")
		require.True(t, strings.HasPrefix(got, "\x1b[1m"), "%s: %q", h.name, got)
		require.True(t, strings.HasSuffix(got, "\x1b[0m\nnext"), "%s: %q", h.name, got)
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1b[H", "\r", "\x00", "\a", "\xff"} {
			require.NotContains(t, got, bad, "%s: %q", h.name, got)
		}
	}
}

func FuzzFrame(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Frame(s)
		require.Equal(t, out, Frame(out), "cleaning is idempotent")
		for i := 0; i < len(out); i++ {
			if out[i] == 0x1b {
				n, keep := escapeLen(out[i:])
				require.True(t, keep, "only SGR survives: %q", out)
				i += n - 1
			}
		}
	})
}
