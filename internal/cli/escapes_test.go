package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hostilePlan has escape sequences in its H1 and a phase name: OSC 0 (a
// window title), OSC 52 (a clipboard write), ESC c (a full reset, which
// markdown keeps: it has no bracket), U+202E (a bidi override) and the C1
// CSI U+009B.
const hostilePlan = "# Title \x1b]0;PWNED\x07 \x1bc reset \u202eevil\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n" +
	"## Phase 1: Name \x1bc here \u202e rtl \x1b]52;c;aGVsbG8=\x07 clip \u009b c1\n\nDo it.\n"

// raw reports the first terminal-driving sequence in s.
func raw(s string) string {
	for _, bad := range []string{"\x1b", "\u202e", "\u009b", "\x07"} {
		if strings.Contains(s, bad) {
			return bad
		}
	}
	return ""
}

// Attack 5 (issue 25): `autobuild validate` and `--dry-run` printed the
// plan's H1 and phase names raw; --json left C1 controls and bidi
// overrides raw. Every text from the plan goes through the sanitizer.
func TestAttackPlanEscapesDoNotReachTheTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.md")
	require.NoError(t, os.WriteFile(path, []byte(hostilePlan), 0o644))
	for _, args := range [][]string{{"validate", path}, {"validate", "--json", path}, {path, "--dry-run"}} {
		_, out, errOut := run(t, args...)
		require.Empty(t, raw(out+errOut), "%q printed %q", args, out+errOut)
		require.Contains(t, out, "here", "%q", args)
	}
}
