package gitx

import (
	"context"
	"strings"
)

// Tracked returns the paths under path (relative to the root) that the
// index of the root's work tree holds, symbolic links and gitlinks
// included.
func (r *Repo) Tracked(ctx context.Context, path string) ([]string, error) {
	out, err := run(ctx, r.root, runOpts{env: noOptionalLocks}, "ls-files", "-z", "--", path)
	if err != nil {
		return nil, err
	}
	var paths []string
	for p := range strings.SplitSeq(out, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}
