package remote

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// commitEnv names the commits a worker makes: they carry a tree to the
// coordinator, which makes the phase's own commit when it lands it.
var commitEnv = []string{
	"GIT_AUTHOR_NAME=autobuild worker", "GIT_AUTHOR_EMAIL=worker@autobuild.invalid",
	"GIT_COMMITTER_NAME=autobuild worker", "GIT_COMMITTER_EMAIL=worker@autobuild.invalid",
}

// git runs one git command (gitx.Git) and trims its output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitx.Git(ctx, dir, nil, args...)
	return strings.TrimSpace(out), err
}

// checkRef asks git itself whether ref is a valid ref name of run runID,
// after the pure check (CheckRunRef).
func checkRef(ctx context.Context, runID, ref string) error {
	if err := CheckRunRef(runID, ref); err != nil {
		return fmt.Errorf("%w: %w", errNotRunRef, err)
	}
	if _, err := gitx.Git(ctx, "", nil, "check-ref-format", ref); err != nil {
		return fmt.Errorf("%q is not a valid ref name: %w", ref, err)
	}
	return nil
}

// NormalizeRemote makes a remote that names a local path absolute (a
// worker runs elsewhere, in another directory) and refuses one git would
// read as an option. URLs (scheme://, user@host:path) are kept as given.
func NormalizeRemote(remote, cwd string) (string, error) {
	remote = strings.TrimSpace(remote)
	switch {
	case remote == "":
		return "", fmt.Errorf("the remote is empty: give a git URL every worker can fetch from and push to (--remote)")
	case strings.HasPrefix(remote, "-"):
		return "", fmt.Errorf("the remote %q starts with a dash: git would read it as an option", remote)
	case strings.Contains(remote, "://") || isSCPLike(remote):
		return remote, nil
	case filepath.IsAbs(remote):
		return filepath.Clean(remote), nil
	}
	return filepath.Join(cwd, remote), nil
}

// isSCPLike says whether remote is git's user@host:path form: a colon
// before any slash.
func isSCPLike(remote string) bool {
	colon := strings.IndexByte(remote, ':')
	slash := strings.IndexByte(remote, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}
