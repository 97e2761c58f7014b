package cli

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/remote"
)

// workerStopGrace is how long a stopping worker lets its attempts run on
// before they are handed to another worker.
const workerStopGrace = 10 * time.Second

// newWorker is `autobuild worker`: a Temporal worker that makes the
// attempts of runs started with --executor temporal (docs/remote.md).
func newWorker(s Streams) *cobra.Command {
	var (
		conn        remote.Conn
		maxParallel int
		dir         string
		name        string
	)
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Make attempts of runs started with --executor temporal, on this machine",
		Long: `Poll a Temporal task queue for attempts, and make each one as autobuild makes it
locally: fetch the repository into a mirror under --dir, check out the
attempt's base in a worktree of its own, run the agent and the gates, commit,
push the commit to refs/autobuild/<run-id>/ on the run's remote, and hand back
the evidence. The agents' API keys are this machine's. See docs/remote.md.`,
		Example: "  autobuild worker\n  autobuild worker --temporal temporal.internal:7233 --max-parallel 4\n  TEMPORAL_API_KEY=... autobuild worker --temporal ns.acct.tmprl.cloud:7233 --namespace ns.acct",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if maxParallel < 1 {
				return usageErr("--max-parallel %d: a worker makes at least 1 attempt at a time", maxParallel)
			}
			if dir == "" {
				home, err := os.UserHomeDir()
				if err != nil {
					return usageErr("--dir: no home directory to put the worker's mirrors under (%v); give --dir", err)
				}
				dir = filepath.Join(home, ".cache", "autobuild", "worker")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return exitcode.Refusedf("the worker's directory %s: %w", dir, err)
			}
			self, err := os.Executable()
			if err != nil {
				return exitcode.Refusedf("finding autobuild's own executable (for the simulated agent): %w", err)
			}
			if name == "" {
				host, _ := os.Hostname()
				name = fmt.Sprintf("%s:%d", host, os.Getpid())
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			conn.Log = s.Err
			conn = conn.WithDefaults()
			w := &remote.Worker{Dir: dir, Identity: name, Run: remote.LocalRunner(self, proc.DefaultGrace, 16<<20)}
			fmt.Fprintf(s.Err, "autobuild worker %s: task queue %q of %s (namespace %s), up to %d at once, in %s\n",
				name, conn.TaskQueue, conn.Address, conn.Namespace, maxParallel, dir)
			if err := remote.Serve(ctx, conn, w, maxParallel, workerStopGrace); err != nil {
				return exitcode.Refusedf("%w", err)
			}
			fmt.Fprintf(s.Err, "autobuild worker %s: stopped\n", name)
			return nil
		},
	}
	f := cmd.Flags()
	addTemporalFlags(f, &conn)
	f.IntVar(&maxParallel, "max-parallel", 1, "make up to N attempts at once")
	f.StringVar(&dir, "dir", "", "keep the mirrors and the attempts' worktrees in `DIR` (default ~/.cache/autobuild/worker)")
	f.StringVar(&name, "name", "", "the worker's name in runs' state and the UI (default HOST:PID)")
	return cmd
}
