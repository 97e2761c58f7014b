package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

func newStatus(s Streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "status [DIR]",
		Short:   "Print the phases of the run in DIR (default .) from its state files",
		Example: "  autobuild status\n  autobuild status ../other-repo --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			store, snap, err := runSnapshot(dirArg(args))
			if err != nil {
				return err
			}
			root := store.Root()
			if asJSON {
				enc := json.NewEncoder(sanitize.JSONWriter{W: s.Out})
				enc.SetIndent("", "  ")
				// The run's usage is the sum of its attempts' (each
				// attempt in the phases carries its own).
				if err := enc.Encode(struct {
					*state.Snapshot
					Usage  *state.Usage `json:"usage,omitempty"`
					Budget *budgetJSON  `json:"budget,omitempty"`
					// AwaitingReview lists the phases (ids) that wait
					// for a person's decision (--review).
					AwaitingReview []phaseid.ID `json:"awaiting_review,omitempty"`
				}{snap, state.RunUsage(snap.Phases), budgetOf(snap), awaitingReview(snap)}); err != nil {
					return err
				}
			} else {
				printStatus(s.Out, snap, root, s.launcher())
			}
			if code := statusExitCode(snap.Run); code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print run.json and every phase file as one JSON object")
	return cmd
}

// statusExitCode is the exit code of the run as status reports it, the
// one the run itself ended (or will end) with (docs/exit-codes.md): 0 for
// a complete or still running run, 1 halted, 130 interrupted or stopped
// (its process gone without a word).
func statusExitCode(r *state.Run) int {
	switch r.Status {
	case state.RunHalted:
		return exitcode.Halted
	case state.RunInterrupted:
		return exitcode.Interrupted
	case state.RunRunning:
		if r.PID > 0 && !processAlive(r.PID) {
			return exitcode.Interrupted
		}
	}
	return 0
}

func printStatus(w io.Writer, snap *state.Snapshot, root string, self launcher) {
	// Titles, names, messages and output lines come from the plan and the
	// agents: none of it may drive the terminal.
	w = sanitize.Writer{W: w}
	r := snap.Run
	status := string(r.Status)
	if r.Status == state.RunRunning && r.PID > 0 && !processAlive(r.PID) {
		// run.json says running, but its process is gone: killed (kill -9,
		// a closed laptop) before it could write how it ended.
		status = fmt.Sprintf("stopped (its autobuild process, pid %d, is gone)", r.PID)
	}
	sched := ""
	if r.Schedule.OrDefault() != state.ScheduleBatches {
		// As the run's start line: the default goes unsaid.
		sched = ", schedule " + string(r.Schedule)
	}
	fmt.Fprintf(w, "%s (%s): %s, commit=%s%s, agent %s\n", r.PlanTitle, r.PlanPath, status, r.CommitMode, sched, strings.Join(r.Agents, ", "))
	if r.HaltReason != "" {
		fmt.Fprintf(w, "Reason: %s\n", r.HaltReason)
	}
	usage := state.RunUsage(snap.Phases)
	if usage != nil {
		fmt.Fprintf(w, "Usage: %s\n", usage.Summary())
	}
	if b := budgetOf(snap); b != nil {
		fmt.Fprintf(w, "Budget: %s\n", b.line())
	}
	if strings.HasPrefix(status, "stopped") || r.Status == state.RunHalted || r.Status == state.RunInterrupted {
		// A budget halt's command raises the budget reached.
		resume := summary.ResumeCommand(summary.Input{Run: r, Phases: snap.Phases, ResumeCommand: resumeCommand(self, root, r)})
		fmt.Fprintf(w, "Continue it with: %s (complete phases stay complete)\n", resume)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "BATCH\tPHASE\tNAME\tSTATUS\tATTEMPT\tDURATION\t"
	// A run on workers (--executor temporal) names the worker of each
	// phase's latest attempt; a local run's table is as it was.
	workers := slices.ContainsFunc(snap.Phases, func(p *state.Phase) bool { return p.Worker() != "" })
	if workers {
		head += "WORKER\t"
	}
	if usage != nil {
		head += "TOKENS\tCOST\t"
	}
	fmt.Fprintln(tw, head+"DETAIL")
	for _, p := range snap.Phases {
		attempt := "-"
		if p.Attempt > 0 {
			attempt = fmt.Sprintf("%d/%d", p.Attempt, max(p.MaxAttempts, 1))
		}
		dur := "-"
		if p.Timestamps.DurationSeconds > 0 {
			dur = human.Duration(p.Timestamps.DurationSeconds)
		}
		cost := ""
		if usage != nil {
			tokens, usd := "-", "-"
			if u := p.TotalUsage(); u != nil {
				tokens = state.Tokens(u.InputTokens+u.CacheReadTokens+u.CacheWriteTokens) + "/" + state.Tokens(u.OutputTokens)
				if u.CostUSD > 0 {
					usd = state.Cost(u.CostUSD)
				}
			}
			cost = tokens + "\t" + usd + "\t"
		}
		worker := ""
		if workers {
			worker = cmp.Or(p.Worker(), "-") + "\t"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s%s%s\n", p.Batch, p.DisplayID, p.PhaseName, p.Status, attempt, dur, worker, cost, statusDetail(p))
	}
	tw.Flush()
}

func statusDetail(p *state.Phase) string {
	switch {
	case p.Status == state.PhaseFailed && p.Error != nil:
		return string(p.Error.Type) + ": " + p.Error.Message
	case p.Status == state.PhaseBlocked:
		return "blocked by " + phaseid.Join(p.BlockedBy, ", ")
	case p.Status == state.PhaseAwaitingReview:
		return "review it with: autobuild review " + string(p.DisplayID.Or(p.PhaseID))
	case p.Commit != nil && p.Commit.SHA != "":
		sha := p.Commit.SHA
		if len(sha) > 7 {
			sha = sha[:7]
		}
		first, _, _ := strings.Cut(p.Commit.Message, "\n")
		return sha + " " + first
	case p.Status == state.PhaseRunning && p.LastOutput != "":
		return p.LastOutput
	}
	return ""
}

// processAlive reports whether a process with this pid exists (one of
// another user counts: signalling it is refused, not unknown).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// findRoot returns the repository root containing dir, or dir itself when it
// is not in a repository (a state directory copied elsewhere still reads).
func findRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	// Walked up from where a symbolic link points, as git does.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	for d := abs; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".autobuild")) {
			return d, nil
		}
		if exists(filepath.Join(d, ".git")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// resumeCommand is the command that resumes run in root. It names the plan
// alone: a resume without --agent runs the agents run.json records.
func resumeCommand(self launcher, root string, run *state.Run) string {
	return followedCommands(self, root).ResumeFor(run.PlanPath)
}

// followedCommands are the commands for a run known from its files in root
// (status, watch): runctl names the plan and the commit mode, self runs
// autobuild in root.
func followedCommands(self launcher, root string) runctl.Commands {
	return runctl.Commands{Launch: func(args ...string) string { return self.in(root, args...) }}
}
