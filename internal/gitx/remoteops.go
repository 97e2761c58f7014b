package gitx

import (
	"context"
	"io"
)

// Git runs one git command in dir as every command of autobuild's runs (see
// run: hooks off, no prompts, literal pathspecs, no inherited GIT_DIR, a
// time limit, its own process group) and returns its stdout. It is for the
// plumbing of remote attempts (package remote: a worker's mirror, the refs
// pushed to and fetched from a shared remote), whose commands gitx does not
// otherwise need; env is appended to the cleaned environment.
func Git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	return run(ctx, dir, runOpts{env: env}, args...)
}

// GitInput is Git with stdin fed from in.
func GitInput(ctx context.Context, dir string, in io.Reader, args ...string) (string, error) {
	return run(ctx, dir, runOpts{stdin: in}, args...)
}
