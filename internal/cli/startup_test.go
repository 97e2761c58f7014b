package cli

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestNoEagerWidthTable guards the start time of every command (issue 29:
// `autobuild --version` under 50 ms). go-runewidth v0.0.26 to v0.0.29, linked
// through charmbracelet/x/ansi, fill a 2 MB table in their package init: ~27 ms
// of every start on the benchmark VM (bench/README.md, "Start time").
// v0.0.30 builds it on first use. A go.mod that brings back one of those
// versions (a downgrade, a dependency's bump undone) fails here. go.mod lists
// every module the build selects, so its line is the version linked.
func TestNoEagerWidthTable(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	const path = "github.com/mattn/go-runewidth"
	for line := range strings.Lines(string(mod)) {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != path {
			continue
		}
		if strings.Contains(line, "=>") {
			t.Fatalf("go.mod replaces %s: check by hand that its init builds no width table, then teach this test", path)
		}
		patch, ok := runewidthPatch(fields[1])
		if !ok {
			t.Fatalf("%s %s: not v0.0.N, check by hand whether its init builds the width table, then teach this test", path, fields[1])
		}
		if patch >= 26 && patch <= 29 {
			t.Fatalf("%s %s builds its 2 MB width table in package init (~27 ms of every start); use v0.0.30 or later", path, fields[1])
		}
		return
	}
	t.Fatalf("go.mod does not list %s any more: drop this guard", path)
}

func runewidthPatch(v string) (int, bool) {
	rest, ok := strings.CutPrefix(v, "v0.0.")
	if !ok {
		return 0, false
	}
	rest, _, _ = strings.Cut(rest, "-") // a pseudo-version's suffix
	n, err := strconv.Atoi(rest)
	return n, err == nil
}
