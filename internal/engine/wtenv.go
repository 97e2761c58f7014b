package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/runstart"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// worktreeEnv makes each phase's worktree ready before its agent starts
// (package wtenv): the ignored files of your checkout that [worktree] copy
// and .worktreeinclude name, the setup command, and the phase's ports. Its
// lock guards its map only.
type worktreeEnv struct {
	cfg   wtenv.Config
	files *wtenv.Env
	// patternsErr is a .worktreeinclude that could not be read: the first
	// phase says so.
	patternsErr error
	ports       *wtenv.Ports
	grace       time.Duration
	hardStop    <-chan struct{}
	announce    sync.Once

	mu sync.Mutex
	// setUp holds the worktrees whose setup ran and whose teardown has not;
	// verifySetUp the verification worktrees whose setup ran.
	setUp       map[phaseid.ID]string
	verifySetUp map[string]bool
	// early holds, by worktree, the files put in while git wrote its
	// tracked files (putAlongside), for readyWorktree to finish.
	early map[string]earlyPut
}

// earlyPut is what putAlongside did.
type earlyPut struct {
	res wtenv.Result
	err error
}

func newWorktreeEnv(root string, store *state.Store, cfg *Config) *worktreeEnv {
	w := &worktreeEnv{cfg: cfg.Worktree, ports: wtenv.NewPorts(cfg.Worktree.PortBase, cfg.Worktree.Ports),
		grace: cfg.Grace, hardStop: cfg.HardStop, setUp: map[phaseid.ID]string{}, verifySetUp: map[string]bool{},
		early: map[string]earlyPut{}}
	patterns, err := wtenv.Patterns(root, cfg.Worktree.Copy)
	w.patternsErr = err
	ops := cfg.WorktreeOps
	if ops == nil {
		sys := wtenv.SystemOps()
		ops = &sys
	}
	w.files = wtenv.New(root, filepath.Join(store.Dir(), "worktree-files"), patterns, *ops)
	return w
}

// putAlongside puts the files into the new worktree dir while git writes
// its tracked files (workspaces.prepare): they are ignored paths, which
// the checkout never writes. readyWorktree finishes it (bring).
func (w *worktreeEnv) putAlongside(ctx context.Context, dir string) {
	if !w.files.Active() || w.patternsErr != nil {
		return
	}
	res, err := w.files.Put(ctx, dir)
	w.mu.Lock()
	w.early[dir] = earlyPut{res: res, err: err}
	w.mu.Unlock()
}

// forget drops what putAlongside did for a worktree that did not come to
// be (its checkout failed, and it was removed).
func (w *worktreeEnv) forget(dir string) {
	w.mu.Lock()
	delete(w.early, dir)
	w.mu.Unlock()
}

// bring brings the files into wt: it checks what putAlongside put there
// (beside), or, for a reused worktree (or when that failed), brings them
// whole.
func (w *worktreeEnv) bring(ctx context.Context, wt string) (res wtenv.Result, beside bool, err error) {
	w.mu.Lock()
	e, ok := w.early[wt]
	delete(w.early, wt)
	w.mu.Unlock()
	if ok && e.err == nil {
		res, err = w.files.Check(ctx, wt, e.res)
		return res, true, err
	}
	res, err = w.files.Bring(ctx, wt)
	return res, false, err
}

// keep are the paths a reused worktree keeps through its clean.
func (w *worktreeEnv) keep() []string { return w.files.KeepPatterns() }

// readied is what readyWorktree gives an attempt: its ports' variables and the
// function that gives them back, or the report of a setup that failed.
type readied struct {
	vars    []string
	release func()
	failed  *failreport.Report
	// interrupted: a Ctrl-C stopped the setup.
	interrupted bool
}

// readyWorktree makes the phase's worktree ready: the ports for every attempt,
// and for a worktree new to the phase (not a retry continuing it) the
// files and the setup command. What it did goes to the attempt's log and
// as worktree_ready events.
func (r *phaseRunner) readyWorktree(ctx context.Context, t *attemptTrack, wt string, continues bool, log io.Writer) readied {
	w, p := r.wtenv, t.p
	block := w.ports.Acquire()
	out := readied{vars: block.Env(), release: func() { w.ports.Release(block) }}
	fmt.Fprintf(log, "# autobuild: ports %d-%d ($%s)\n", block.First, block.First+block.Count-1, wtenv.EnvPort)
	if continues {
		return out
	}
	fail := func(rep failreport.Report) readied {
		rep.Type, rep.Retryable = failreport.EnvironmentSetup, false
		rep.SuggestedActions = failure.Suggest(rep)
		out.failed = &rep
		return out
	}
	if w.patternsErr != nil {
		return fail(failreport.Report{Message: w.patternsErr.Error(), BlockedOn: wtenv.IncludeFile,
			Fix: "make " + wtenv.IncludeFile + " at the repository root a readable file"})
	}
	res, beside, err := w.bring(ctx, wt)
	if err != nil {
		if ctx.Err() != nil {
			out.interrupted = true
			return out
		}
		if rep, ok := diskFullReport(err); ok {
			out.failed = &rep
			return out
		}
		return fail(failreport.Report{Message: "bringing the ignored files into the worktree failed: " + err.Error(),
			BlockedOn: "[worktree] copy",
			Fix:       "check [worktree] copy in autobuild.toml and " + wtenv.IncludeFile + ": every file they name must be readable"})
	}
	if len(res.Entries) > 0 {
		w.announce.Do(func() {
			r.rec.Emit(event.Event{Kind: event.WorktreeReady, Line: w.files.Choice()})
		})
		line := fmt.Sprintf("%s: %s, %s (%d put, %d up to date, %d removed) in %s",
			wtenv.List(res.Entries), countText(res.Stats.Files, "file"), sizeText(res.Stats.Bytes), res.Stats.Put, res.Stats.Kept,
			res.Stats.Removed, res.Took.Round(time.Millisecond))
		how := ""
		if beside {
			how = ", put in while git wrote the worktree's tracked files"
		}
		fmt.Fprintf(log, "# autobuild: worktree files (%s%s): %s\n", res.Mode, how, line)
		if len(res.Dropped) > 0 {
			fmt.Fprintf(log, "# autobuild: not brought in, the worktree's .gitignore does not ignore them (they would be committed): %s\n",
				strings.Join(res.Dropped, ", "))
		}
		r.rec.Emit(phaseEvent(event.WorktreeReady, p, t.req.Number, event.Event{Line: line}))
	}
	if w.cfg.Setup == "" {
		return out
	}
	r.rec.Emit(phaseEvent(event.WorktreeReady, p, t.req.Number, event.Event{Line: "setup: " + w.cfg.Setup}))
	fmt.Fprintf(log, "# autobuild: setup: %s\n", w.cfg.Setup)
	w.mu.Lock()
	w.setUp[p.ID] = wt
	w.mu.Unlock()
	obs := &attemptObserver{rec: r.rec, p: p, number: t.req.Number}
	sr := wtenv.Script{Command: w.cfg.Setup, Dir: wt, Env: append(r.phaseVars(p.ID), out.vars...),
		Timeout: t.req.Timeout, Grace: w.grace, HardStop: w.hardStop, Output: log,
		OnLine: func(line string) { obs.Output("setup", line) }}.Run(ctx)
	switch {
	case sr.Canceled:
		out.interrupted = true
		return out
	case sr.ExitCode == 0 && !sr.TimedOut && sr.Err == nil:
		fmt.Fprintf(log, "# autobuild: setup passed in %s\n", sr.Duration.Round(time.Millisecond))
		return r.checkSetupLeftNothing(ctx, wt, out, fail)
	}
	how := fmt.Sprintf("exit %d", sr.ExitCode)
	if sr.TimedOut {
		how = "stopped at the attempt's time limit " + t.req.Timeout.String()
	} else if sr.Err != nil && sr.ExitCode <= 0 {
		how = sr.Err.Error()
	}
	fmt.Fprintf(log, "# autobuild: setup failed (%s)\n", how)
	tail := clip.Tail(sanitize.Text(sr.Tail), 20)
	return fail(failreport.Report{
		Message: fmt.Sprintf("the worktree's setup command `%s` failed (%s) before the agent started: %s",
			sanitize.Line(w.cfg.Setup), how, sanitize.Line(telling(tail))),
		Details: tail, BlockedOn: "[worktree] setup",
		Fix: fmt.Sprintf("run it by hand in the phase's worktree (cd %s && %s), fix the command in autobuild.toml [worktree] setup or what it needs",
			r.rel(wt), w.cfg.Setup),
	})
}

// readyVerify makes a verification worktree (the combination of landings,
// the run's base) ready for the gates as a phase's is: the files brought
// in or brought up to date, the setup once per worktree, and a block of
// ports for the gates' environment, given back by release.
func (w *worktreeEnv) readyVerify(ctx context.Context, dir string, log io.Writer) ([]string, func(), error) {
	block := w.ports.Acquire()
	release := func() { w.ports.Release(block) }
	fail := func(err error) ([]string, func(), error) {
		release()
		return nil, func() {}, err
	}
	if w.patternsErr != nil {
		return fail(w.patternsErr)
	}
	if _, err := w.files.Bring(ctx, dir); err != nil {
		return fail(fmt.Errorf("bringing the ignored files into the verification worktree: %w", err))
	}
	w.mu.Lock()
	first := !w.verifySetUp[dir]
	w.mu.Unlock()
	if w.cfg.Setup != "" && first {
		fmt.Fprintf(log, "# autobuild: setup: %s\n", w.cfg.Setup)
		res := wtenv.Script{Command: w.cfg.Setup, Dir: dir, Env: block.Env(), Timeout: 30 * time.Minute,
			Grace: w.grace, HardStop: w.hardStop, Output: log}.Run(ctx)
		if res.Canceled || res.ExitCode != 0 || res.TimedOut || res.Err != nil {
			return fail(fmt.Errorf("the setup command `%s` failed in the verification worktree %s (exit %d): %s",
				sanitize.Line(w.cfg.Setup), filepath.Base(dir), res.ExitCode, sanitize.Line(telling(res.Tail))))
		}
		w.mu.Lock()
		w.verifySetUp[dir] = true
		w.mu.Unlock()
	}
	return block.Env(), release, nil
}

// checkSetupLeftNothing fails the setup when it changed a tracked file or
// left a file git does not ignore: the phase's commit would take it as the
// agent's work.
func (r *phaseRunner) checkSetupLeftNothing(ctx context.Context, wt string, out readied, fail func(failreport.Report) readied) readied {
	_, files, err := gitx.HeadAndStatusFiles(ctx, wt)
	if err != nil {
		if ctx.Err() != nil {
			out.interrupted = true
			return out
		}
		return fail(failreport.Report{Message: "reading the worktree after its setup: " + err.Error(), BlockedOn: "[worktree] setup"})
	}
	if len(files) == 0 {
		return out
	}
	return fail(failreport.Report{
		Message: fmt.Sprintf("the worktree's setup command `%s` changed files git does not ignore (they would be committed as the phase's work): %s",
			sanitize.Line(r.wtenv.cfg.Setup), sanitize.Line(runstart.JoinMax(files, 5))),
		FilesChanged: files, BlockedOn: "[worktree] setup",
		Fix: "have the setup command write only files your .gitignore ignores (node_modules/, .venv/, build output), or ignore what it writes",
	})
}

// teardown runs the teardown command in the phase's worktree, when its
// setup ran: after the phase landed, and for the rest when the run stops.
// It changes nothing of the phase's outcome; what it prints goes to log.
func (w *worktreeEnv) teardown(ctx context.Context, id phaseid.ID, vars []string, log io.Writer) {
	w.mu.Lock()
	wt, ok := w.setUp[id]
	delete(w.setUp, id)
	w.mu.Unlock()
	if !ok || w.cfg.Teardown == "" {
		return
	}
	if _, err := os.Stat(wt); err != nil {
		return
	}
	fmt.Fprintf(log, "# autobuild: teardown: %s\n", w.cfg.Teardown)
	res := wtenv.Script{Command: w.cfg.Teardown, Dir: wt, Env: vars, Timeout: 5 * time.Minute, Grace: w.grace,
		HardStop: w.hardStop, Output: log}.Run(context.WithoutCancel(ctx))
	if res.ExitCode != 0 || res.Err != nil {
		fmt.Fprintf(log, "# autobuild: teardown failed (exit %d): the phase's outcome stands\n", res.ExitCode)
	}
}

// teardownAll runs the teardown of every worktree still set up, when the
// run stops; each one's output goes to its phase's last attempt log.
func (r *phaseRunner) teardownAll(ctx context.Context) {
	w := r.wtenv
	w.mu.Lock()
	ids := make([]phaseid.ID, 0, len(w.setUp))
	for id := range w.setUp {
		ids = append(ids, id)
	}
	w.mu.Unlock()
	for _, id := range ids {
		log := io.Discard
		if n := len(r.rec.Get(id).Attempts); n > 0 {
			if f, err := os.OpenFile(r.store.AttemptLogPath(id, n), os.O_WRONLY|os.O_APPEND, 0); err == nil {
				defer f.Close()
				log = f
			}
		}
		w.teardown(ctx, id, r.phaseVars(id), log)
	}
}

// discardWorktreeFiles moves the files brought in out of the worktrees the
// run is about to remove (the spares; every worktree of a complete run)
// (wtenv.Discard), for emptyTrash to remove in the background: the end of
// a run does not wait for eight node_modules to be unlinked.
func (r *phaseRunner) discardWorktreeFiles(complete bool) {
	if !r.wtenv.files.Active() {
		return
	}
	r.spaces.mu.Lock()
	dirs := slices.Clone(r.spaces.spares)
	r.spaces.mu.Unlock()
	if complete {
		entries, _ := os.ReadDir(r.store.WorktreesDir())
		dirs = dirs[:0]
		for _, e := range entries {
			dirs = append(dirs, filepath.Join(r.store.WorktreesDir(), e.Name()))
		}
	}
	_, _ = r.wtenv.files.Discard(r.trash(), dirs)
}

// emptyTrash has what discardWorktreeFiles moved removed in the
// background, once the run's own work is done: an rm -rf of 160,000
// files beside the removal of the worktrees made that three times slower.
func (r *phaseRunner) emptyTrash() {
	if r.wtenv.files.Active() {
		_ = wtenv.EmptyTrash(r.trash())
	}
}

// trash is where the files brought in wait for their removal.
func (r *phaseRunner) trash() string { return filepath.Join(r.store.Dir(), "worktree-files-trash") }

// phaseVars are the variables the setup and teardown get besides ports.
func (r *phaseRunner) phaseVars(id phaseid.ID) []string {
	return []string{agent.EnvPhaseID + "=" + string(id), agent.EnvPlan + "=" + runstart.PlanFile(r.cfg.Dir, r.cfg.Plan.Path)}
}

// telling is the line of a command's output that says what went wrong:
// the first that speaks of an error, else the last.
func telling(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for _, l := range lines {
		if lower := strings.ToLower(l); strings.Contains(lower, "error") || strings.Contains(lower, "err!") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// countText is "1 file", "20000 files".
func countText(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// sizeText is a byte count for people: "212 MB".
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// executorSetupFailed is the environment_setup report of the [worktree]
// setup command that failed where an executor that owns its workspace ran
// it (a worker): as readyWorktree's, pointing at that machine.
func (r *phaseRunner) executorSetupFailed(sf *executor.SetupFailure) failreport.Report {
	setup := r.wtenv.cfg.Setup
	tail := clip.Tail(sanitize.Text(sf.Tail), 20)
	rep := failreport.Report{Type: failreport.EnvironmentSetup, Retryable: false, Details: tail, BlockedOn: "[worktree] setup",
		Message: fmt.Sprintf("the worktree's setup command `%s` failed (%s) on the executor's machine before the agent started: %s",
			sanitize.Line(setup), sanitize.Line(sf.How), sanitize.Line(telling(tail))),
		Fix: fmt.Sprintf("run it by hand in a checkout of the phase's base on that machine (%s), fix the command in autobuild.toml [worktree] setup or what it needs there",
			sanitize.Line(setup)),
	}
	if len(sf.LeftFiles) > 0 {
		rep.Message = fmt.Sprintf("the worktree's setup command `%s` changed files git does not ignore on the executor's machine (they would be committed as the phase's work): %s",
			sanitize.Line(setup), sanitize.Line(runstart.JoinMax(sf.LeftFiles, 5)))
		rep.FilesChanged = sf.LeftFiles
		rep.Fix = "have the setup command write only files your .gitignore ignores (node_modules/, .venv/, build output), or ignore what it writes"
	}
	rep.SuggestedActions = failure.Suggest(rep)
	return rep
}
