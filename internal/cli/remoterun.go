package cli

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/remote"
	"github.com/autobuild-sh/autobuild/internal/runstart"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// remoteOptions are a run's --executor, --remote and Temporal flags
// (docs/remote.md).
type remoteOptions struct {
	kind   string
	remote string
	conn   remote.Conn
	// made is the executor engineConfig made, ended with the run.
	made *remote.Executor
}

func (r *remoteOptions) register(f *pflag.FlagSet) {
	f.StringVar(&r.kind, "executor", "", "where attempts are made, a `KIND`: local (the default) or temporal (on autobuild workers through a Temporal server; needs --remote)")
	f.StringVar(&r.remote, "remote", "", "with --executor temporal: the git `URL` the workers fetch from and push to; autobuild pushes only refs/autobuild/<run-id>/ there")
	addTemporalFlags(f, &r.conn)
}

// executor is the run's executor: nil (the local one) unless --executor or
// [executor] kind says temporal, in which case the server, the namespace
// and the remote are checked first (exit 3, within seconds, naming the
// address and the fix). agents is how many agents the run may switch
// between: with one, a usage limit within waitLimit is waited out in the
// workflow (a durable timer); with more, the engine decides as it does
// locally.
func (r *remoteOptions) executor(ctx context.Context, fc config.Executor, root, wd string, agents int, waitLimit time.Duration) (executor.Executor, error) {
	kind := cmp.Or(r.kind, fc.Kind, config.ExecutorLocal)
	url := cmp.Or(r.remote, fc.Remote)
	switch kind {
	case config.ExecutorLocal:
		if r.remote != "" {
			return nil, usageErr("--remote %s: only a run with --executor temporal uses a remote", r.remote)
		}
		return nil, nil
	case config.ExecutorTemporal:
	default:
		return nil, usageErr("--executor %q: local or temporal", kind)
	}
	if url == "" {
		return nil, usageErr("--executor temporal needs --remote URL (or [executor] remote in autobuild.toml): a git repository every worker can fetch from and push to (a bare repository's path works on one machine)")
	}
	url, err := remote.NormalizeRemote(url, wd)
	if err != nil {
		return nil, usageErr("--remote: %w", err)
	}
	conn := remote.Conn{
		Address: cmp.Or(r.conn.Address, fc.Address), Namespace: cmp.Or(r.conn.Namespace, fc.Namespace),
		TaskQueue: cmp.Or(r.conn.TaskQueue, fc.TaskQueue), TLS: r.conn.TLS, Log: os.Stderr,
	}.WithDefaults()
	cl, err := remote.Dial(ctx, conn, "autobuild-preflight")
	if err != nil {
		return nil, &exitcode.Error{Code: exitcode.Refused, Err: err}
	}
	cl.Close()
	probe := remote.Shared{Repo: root, Remote: url, RunID: "preflight-" + randomHex(4)}
	if err := probe.CheckPush(ctx, remote.PreflightLimit); err != nil {
		return nil, &exitcode.Error{Code: exitcode.Refused, Err: fmt.Errorf("%w: give --remote a git URL every worker can fetch from and this machine can push to; autobuild pushes only refs under refs/autobuild/<run-id>/", err)}
	}
	host, _ := os.Hostname()
	identity := fmt.Sprintf("coordinator %s:%d", host, os.Getpid())
	r.made = &remote.Executor{
		Remote: url,
		Connect: func(ctx context.Context, runID string) (*remote.Coordinator, error) {
			return remote.NewCoordinator(ctx, conn, remote.Shared{Repo: root, Remote: url, RunID: runID}, identity)
		},
		Request: func(req *remote.AttemptRequest) {
			req.HeartbeatTimeout = fc.HeartbeatTimeout.Duration
			if agents == 1 {
				req.WaitLimit = waitLimit
			}
		},
	}
	return r.made, nil
}

// end ends a remote run's workflow and deletes its refs, once the run
// ended here (complete, halted or interrupted); a coordinator killed
// before leaves both for its --resume.
func (r *remoteOptions) end(ctx context.Context, s Streams) {
	if r.made == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := r.made.Finish(ctx); err != nil {
		fmt.Fprintf(s.Err, "autobuild: warning: ending the remote run: %v\n", err)
	}
	r.made.Close()
}

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// copyNote says, when [worktree] copy or .worktreeinclude name ignored
// files of your checkout, that attempts made where the executor owns the
// workspace (on workers) do not get them: your checkout is not on those
// machines. "" when they name none.
func copyNote(root string, copy []string) string {
	pats, err := wtenv.Patterns(root, copy)
	if err != nil || len(pats) == 0 {
		return ""
	}
	return fmt.Sprintf("[worktree] copy / %s name ignored files of your checkout (%s): attempts made on workers do not get them, "+
		"as your checkout is not on their machines; have [worktree] setup make them there (docs/remote.md)",
		wtenv.IncludeFile, sanitize.Line(runstart.JoinMax(pats, 3)))
}
