package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitenv"
)

// noHooks turns off the repository's hooks for every git command autobuild
// runs, its landing on the user's branch included: the gates verify the
// work, and a hook (post-commit, reference-transaction, a hanging
// pre-commit) would otherwise run a dozen times per phase, outside any
// phase's supervision and time limit.
const noHooks = "core.hooksPath=/dev/null"

// noAutoMaintenance keeps commit, merge and cherry-pick from starting
// `git maintenance run --auto` (or `gc --auto`) after every phase: a child
// process per command, and now and then a repack in the middle of a run.
// The run asks for it once, at its end (Repo.MaintainOnce).
var noAutoMaintenance = []string{"maintenance.auto=false", "gc.auto=0"}

// commandTimeout bounds one git command: none of autobuild's takes minutes,
// and a git stuck on a lock, a filter or a credential helper must not hold
// a run forever.
const commandTimeout = 10 * time.Minute

// killGrace is how long a canceled git command gets after SIGTERM before it
// is killed: git removes its lock files on SIGTERM, so it deserves a moment.
const killGrace = 5 * time.Second

// runOpts are the less common settings of one git command.
type runOpts struct {
	// config holds extra "-c key=value" pairs (the fallback identity).
	config []string
	// env is appended to the cleaned environment.
	env []string
	// stdin feeds the command, when set.
	stdin io.Reader
}

// gitError is a failed git command: the command, its exit status and what it
// printed on stderr, so the reason reaches the user.
func gitError(args []string, err error, stderr string) error {
	stderr = strings.TrimSpace(stderr)
	if stderr == "" {
		return fmt.Errorf("git %s: %w", label(args), err)
	}
	return fmt.Errorf("git %s: %w: %s", label(args), err, stderr)
}

// label names a git command for errors: the subcommand, and for the few
// commands with sub-subcommands ("worktree add") that word too.
func label(args []string) string {
	if len(args) == 0 {
		return ""
	}
	if len(args) > 1 && (args[0] == "worktree" || args[0] == "stash") && !strings.HasPrefix(args[1], "-") {
		return args[0] + " " + args[1]
	}
	return args[0]
}

// run runs git with args in dir and returns its stdout. Every command gets
// core.quotepath=off (paths print as they are), no hooks (noHooks), LC_ALL=C
// (messages we match on stay English), GIT_TERMINAL_PROMPT=0 (never wait for
// a password) and at most commandTimeout.
// The command runs in its own process group, so a Ctrl-C meant for autobuild
// does not kill git half-way through rewriting a ref or the index; ctx
// cancellation sends SIGTERM to the group instead.
func run(ctx context.Context, dir string, o runOpts, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	full := make([]string, 0, len(args)+8+2*len(o.config))
	full = append(full, "-c", "core.quotepath=off", "-c", noHooks)
	if len(args) == 0 || args[0] != "maintenance" {
		for _, c := range noAutoMaintenance {
			full = append(full, "-c", c)
		}
	}
	for _, c := range o.config {
		full = append(full, "-c", c)
	}
	full = append(full, args...)

	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = gitEnv(o.env)
	cmd.Stdin = o.stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// The negative pid addresses the whole process group (hooks included).
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = killGrace
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("git is not installed or not on PATH: autobuild needs git: %w", err)
		}
		return stdout.String(), gitError(args, err, stderr.String())
	}
	return stdout.String(), nil
}

// gitEnv is the process environment without inherited repository overrides
// and pathspec settings, plus the fixed settings and extra.
func gitEnv(extra []string) []string {
	env := make([]string, 0, len(os.Environ())+3+len(extra))
	for _, kv := range os.Environ() {
		if !gitenv.IsLocation(kv) && !strings.HasPrefix(kv, "LC_ALL=") && !strings.HasPrefix(kv, "GIT_TERMINAL_PROMPT=") &&
			!strings.HasPrefix(kv, "GIT_LITERAL_PATHSPECS=") && !strings.HasPrefix(kv, "GIT_GLOB_PATHSPECS=") &&
			!strings.HasPrefix(kv, "GIT_NOGLOB_PATHSPECS=") && !strings.HasPrefix(kv, "GIT_ICASE_PATHSPECS=") {
			env = append(env, kv)
		}
	}
	// Every path autobuild passes to git is a file's name, never pathspec
	// magic (a file named `:!src` or `*.go`), whatever the caller.
	env = append(env, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_LITERAL_PATHSPECS=1")
	return append(env, extra...)
}

// exitCode is the exit status of a failed command, or -1 when it did not
// run to an exit (not found, killed, canceled).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// lines splits command output into its non-empty lines.
func lines(out string) []string {
	var ls []string
	for l := range strings.SplitSeq(out, "\n") {
		if l = strings.TrimRight(l, "\r"); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}
