package gitx

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// The oldest git autobuild runs with: phases land through `merge-tree
// --write-tree` (git 2.38).
const minMajor, minMinor = 2, 38

// CheckVersion refuses a git older than 2.38, before a run starts rather
// than at its first landing.
func CheckVersion(ctx context.Context) error {
	out, err := run(ctx, ".", runOpts{}, "version")
	if err != nil {
		return err
	}
	return checkVersionOutput(out)
}

// checkVersionOutput is CheckVersion on `git version`'s output.
func checkVersionOutput(out string) error {
	major, minor, ok := parseVersion(out)
	if !ok {
		return nil // an unknown format: let git itself say later
	}
	if major < minMajor || (major == minMajor && minor < minMinor) {
		return fmt.Errorf("autobuild needs git %d.%d or newer (it lands phases with git merge-tree --write-tree); "+
			"this is %s: install a newer git", minMajor, minMinor, strings.TrimSpace(out))
	}
	return nil
}

// parseVersion reads "git version 2.39.5" (and the vendors' variants:
// "2.39.3 (Apple Git-146)", "2.41.0.windows.1").
func parseVersion(out string) (major, minor int, ok bool) {
	v, found := strings.CutPrefix(strings.TrimSpace(out), "git version ")
	if !found {
		return 0, 0, false
	}
	parts := strings.SplitN(strings.Fields(v)[0], ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}
