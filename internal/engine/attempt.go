package engine

import (
	"context"
	"errors"
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
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// phaseRunner is the real runner: each attempt runs the agent in the phase's
// own worktree, then the quality gates, then classifies a failure or lands
// the work through the integrator.
type phaseRunner struct {
	cfg        *Config
	root       string
	repo       *gitx.Repo
	store      *state.Store
	rec        *recorder
	gates      []gates.Gate
	classifier *failure.Classifier
	integ      *integrator

	// bases holds the commit each phase's worktree started from, so a
	// conflict can name the lines the phase changed. Guarded by integ.mu.
	bases map[string]string
	// eager is set under the eager schedule: a landed phase's worktree and
	// branch are removed in the background (its dependents wait for the
	// landing only; cleanups counts those still going, which the run waits
	// for), and prompts speak of no batch.
	eager    bool
	cleanups sync.WaitGroup
}

func (r *phaseRunner) attempt(ctx context.Context, req attemptRequest) attemptResult {
	p := req.Phase
	started := r.cfg.Now()
	prior := r.rec.get(p.ID)
	seq := len(prior.Attempts) + 1 // log files count every attempt ever
	logPath := r.store.AttemptLogPath(p.ID, seq)
	wt := r.store.PhaseWorktreePath(p.ID)

	r.rec.phase(p.ID, func(ps *state.Phase) {
		ps.Status = state.PhaseRunning
		ps.Attempt = req.Number
		ps.MaxAttempts = MaxAttempts
		ps.Agent = req.Agent.Name
		ps.Timestamps = state.Timestamps{Started: &started}
		ps.Error = nil
		ps.BlockedBy = nil
		ps.QualityGates = nil
		ps.Verification = state.Verification{}
		ps.Worktree = r.rel(wt)
		ps.Attempts = append(ps.Attempts, state.Attempt{Number: req.Number, Agent: req.Agent.Name,
			Started: started, Outcome: state.OutcomeRunning, LogPath: r.rel(logPath)})
	})
	r.rec.emit(event.Event{Kind: event.PhaseStarted, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Batch: prior.Batch, Attempt: req.Number, MaxAttempts: MaxAttempts, Agent: req.Agent.Name})

	log, err := proc.CreateCapped(logPath, r.cfg.LogCap)
	if err != nil {
		return r.fail(p, req, started, seq, wt, infraFailure(req, started, fmt.Errorf("creating the attempt log: %w", err)))
	}
	defer log.Close()

	base, continues, err := r.prepareWorktree(ctx, p, req, wt)
	if err != nil {
		if ctx.Err() != nil {
			return r.interrupted(p, req, started)
		}
		return r.fail(p, req, started, seq, wt, infraFailure(req, started, err))
	}
	fmt.Fprintf(log, "# autobuild: phase %s attempt %d/%d, agent %s, worktree %s, base %s, time limit %s\n",
		p.DisplayID, req.Number, MaxAttempts, req.Agent.Name, r.rel(wt), clip.SHA(base), req.Timeout)
	outside := r.integ.snapshotOutside(ctx)

	ev, commitMsg, interrupted, err := r.runAgentAndGates(ctx, p, req, wt, base, continues, started, log, seq)
	if interrupted {
		return r.interrupted(p, req, started)
	}
	if err != nil {
		// git failed on the worktree: autobuild's trouble, not the agent's,
		// and not to be read as the agent's output.
		return r.fail(p, req, started, seq, wt, infraFailure(req, started, err))
	}
	ev.Attempt = req.Number
	ev.Duration = r.cfg.Now().Sub(started)
	if rep := r.integ.checkOutside(ctx, outside, wt, log); rep != nil {
		rep.Attempt, rep.DurationSeconds = req.Number, ev.Duration.Seconds()
		return r.fail(p, req, started, seq, wt, *rep)
	}
	if failed(ev) {
		rep := r.classifier.Classify(ev)
		rep.Retryable = rep.Type.Retryable()
		noteLimit(&rep, ev.AgentOutput, r.cfg.Now())
		// A rate-limited attempt is repeated, not fixed: its repeats are
		// neither a circular fix nor history a fix could repeat.
		if rep.Retryable && rep.Type.ConsumesRetry() && failure.IsCircular(rep, fixAttempts(req.Previous)) {
			rep.Circular = true
			rep.Retryable = false
		}
		return r.fail(p, req, started, seq, wt, rep)
	}

	// Landing is a few short git commands; neither a Ctrl-C nor the hard
	// stop interrupts them halfway through a cherry-pick or the fast-forward
	// of the user's branch: they run to the end, then the run stops.
	commit, conflict, err := r.integ.land(context.WithoutCancel(ctx), p, wt, base, commitMsg)
	if err != nil {
		return r.fail(p, req, started, seq, wt, infraFailure(req, started, err))
	}
	if conflict != nil {
		conflict.Attempt = req.Number
		conflict.DurationSeconds = r.cfg.Now().Sub(started).Seconds()
		return r.fail(p, req, started, seq, wt, *conflict)
	}
	return r.complete(ctx, p, req, started, wt, commit)
}

// prepareWorktree creates the phase's worktree from the run's current
// integration commit for its first attempt in this run. Any later attempt
// of the run (the retry, or the repeat of a rate-limited attempt) continues
// in that worktree, on top of the earlier attempt's work (continues).
func (r *phaseRunner) prepareWorktree(ctx context.Context, p *plan.Phase, req attemptRequest, wt string) (base string, continues bool, err error) {
	r.integ.mu.Lock()
	base, reuse := r.bases[p.ID]
	r.integ.mu.Unlock()
	if reuse {
		if _, err := os.Stat(wt); err == nil {
			return base, true, nil
		}
	}
	tip := r.integ.Tip()
	if err := r.repo.AddWorktree(ctx, wt, r.integ.refs.phase(p.ID), tip); err != nil {
		return "", false, fmt.Errorf("creating the worktree of phase %s: %w", p.DisplayID, err)
	}
	r.integ.mu.Lock()
	r.bases[p.ID] = tip
	r.integ.mu.Unlock()
	return tip, false, nil
}

// runAgentAndGates runs the agent, then (if it succeeded) the gates, and
// gathers the evidence. It reports whether the run was interrupted. The
// attempt's time limit counts from started and covers the agent and the
// gates together.
func (r *phaseRunner) runAgentAndGates(ctx context.Context, p *plan.Phase, req attemptRequest, wt, base string, continues bool,
	started time.Time, log io.Writer, seq int) (ev failure.Evidence, commitMsg string, interrupted bool, err error) {
	if g := r.missingDeclaredGate(); g != nil {
		// Running the agent first would spend a whole attempt on work that
		// cannot be verified.
		fmt.Fprintf(log, "# autobuild: the %s gate `%s` needs %s, which is not on PATH: the agent was not started\n", g.Kind, g.Command, g.Tool)
		r.rec.phase(p.ID, func(ps *state.Phase) {
			ps.QualityGates = map[string]state.GateResult{g.Kind: {Command: g.Command, Status: state.GateMissing,
				ExitCode: 127, OutputSummary: "not run: " + g.Tool + " is not installed"}}
		})
		ev.AgentCommand = agentCommand(req.Agent)
		ev.Gate = &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: 127, Declared: true,
			Output: g.Tool + ": not found (checked before the agent was started)"}
		return ev, "", false, nil
	}
	prompt, args := r.promptFor(p, req, continues, log)
	promptFile := r.store.PromptPath(p.ID, seq)
	if err := os.MkdirAll(filepath.Dir(promptFile), 0o755); err == nil {
		_ = os.WriteFile(promptFile, []byte(prompt), 0o644)
	}
	absPlan, _ := filepath.Abs(r.cfg.Plan.Path)
	spec := proc.Spec{
		Args: args, Shell: req.Agent.Shell, Dir: wt,
		Env: append(agent.Env(agent.EnvInput{PhaseID: p.ID, Attempt: req.Number, MaxAttempts: MaxAttempts,
			PlanPath: absPlan, PromptFile: promptFile, SimScenario: r.cfg.SimScenario, AgentRun: req.Run}), req.Agent.Env...),
		Stdin: strings.NewReader(prompt), Timeout: req.Timeout, IdleTimeout: r.cfg.IdleTimeout,
		Grace: r.cfg.Grace, HardStop: r.cfg.HardStop, Output: log,
		OnLine: r.outputLine(p, req.Number, "agent"), Lines: r.rec.lineMode,
	}
	run := r.runAgent(ctx, p, req, spec, prompt, wt, log, seq)
	res := run.res
	if run.usage != nil || run.session != "" {
		r.rec.phase(p.ID, func(ps *state.Phase) {
			if n := len(ps.Attempts); n > 0 {
				ps.Attempts[n-1].Usage = run.usage
				ps.Attempts[n-1].Session = run.session
			}
		})
	}
	if res.Canceled {
		return ev, "", true, nil
	}
	logAgentEnd(log, res, req.Timeout, r.cfg.IdleTimeout)
	ev.TimedOut, ev.IdleTimedOut = res.TimedOut, res.IdleTimedOut
	ev.AgentExitCode, ev.AgentNotFound = res.ExitCode, res.NotFound
	ev.AgentRan = !res.NotFound
	ev.AgentCommand = agentCommand(req.Agent)
	ev.AgentOutput = run.output
	ev.AgentSignal = run.signal
	if res.Err != nil && !res.NotFound {
		ev.AgentOutput += "\n" + res.Err.Error()
		if ev.AgentExitCode == 0 {
			ev.AgentExitCode = -1
		}
	}
	ev.ResultRequired = req.Agent.RequiresResult
	var usage *state.Usage
	if result, err := agent.ParseResult(run.final); err == nil {
		ev.ResultFound = true
		ev.ResultStatus = result.Status
		ev.TasksTotal, ev.TasksCompleted = result.Tasks.Total, result.Tasks.Completed
		commitMsg = result.CommitMessage
		if run.usage == nil {
			usage = result.Usage
		}
		if result.Error != nil {
			ev.ResultErrorType, ev.ResultErrorMessage = result.Error.Type, result.Error.Message
		}
	} else if !errors.Is(err, agent.ErrNoResult) {
		ev.ResultParseErr = err.Error()
	}
	if run.usage != nil {
		// What the CLI itself counted beats what its message claims.
		usage = run.usage
	}
	files, err := r.tidyWorktree(ctx, p, wt, base, log)
	if err != nil {
		if ctx.Err() != nil {
			return ev, "", true, nil
		}
		return ev, "", false, err
	}
	ev.FilesChanged = files
	ev.Worktree = wt
	r.rec.phase(p.ID, func(ps *state.Phase) {
		if n := len(ps.Attempts); n > 0 && usage != nil {
			ps.Attempts[n-1].Usage = usage
		}
		ps.Verification.AgentClaimed = claimed(ev)
		if ev.TasksTotal > 0 {
			ps.Tasks = state.Tasks{Total: ev.TasksTotal, Completed: ev.TasksCompleted}
		}
	})
	if agentFailed(ev) {
		return ev, commitMsg, false, nil
	}
	// What the gates create or change (a binary, a coverage file, a
	// formatter's rewrite) is no part of the phase's work: the worktree is
	// put back as the agent left it before anything is committed.
	// Without gates nothing runs between the snapshot and the restore:
	// both are skipped, four git commands fewer on every phase's way to
	// landing.
	snap := len(r.gates) > 0
	var agentTree string
	var snapErr error
	if snap {
		agentTree, snapErr = gitx.SnapshotTree(ctx, wt)
		if snapErr != nil && ctx.Err() == nil {
			return ev, "", false, fmt.Errorf("recording phase %s's worktree before the gates: %w", p.DisplayID, snapErr)
		}
	}
	gate, timedOut, interrupted := r.runGates(ctx, p, req, wt, log, started.Add(req.Timeout))
	if snap && snapErr == nil {
		if err := restoreAfterGates(context.WithoutCancel(ctx), wt, agentTree, log); err != nil {
			return ev, "", false, fmt.Errorf("phase %s: %w", p.DisplayID, err)
		}
	}
	if interrupted {
		return ev, "", true, nil
	}
	ev.Gate, ev.TimedOut = gate, timedOut
	if gate != nil || timedOut {
		// The failure report names the files as the gates left them (they
		// may format or generate files). A passing phase's files are read
		// where they are committed.
		ev.FilesChanged = r.changedFiles(ctx, wt)
	}
	return ev, commitMsg, false, nil
}

// runGates runs the quality gates in order and stops at the first failure,
// whose evidence it returns. The gates share what is left of the attempt's
// time until deadline; a gate still running then is stopped, and the
// attempt has timed out (timedOut).
func (r *phaseRunner) runGates(ctx context.Context, p *plan.Phase, req attemptRequest, wt string, log io.Writer,
	deadline time.Time) (failedGate *failure.GateEvidence, timedOut, interrupted bool) {
	results := map[string]state.GateResult{}
	for _, g := range r.gates {
		gr := state.GateResult{Command: g.Command}
		switch {
		case failedGate != nil || timedOut:
			gr.Status = state.GateNotRun
		case !g.Declared && g.ToolMissing:
			gr.Status = state.GateMissing
			gr.OutputSummary = "not run (tool missing: " + g.Tool + ")"
			fmt.Fprintf(log, "\n# autobuild: gate %s not run (tool missing: %s): %s\n", g.Kind, g.Tool, g.Command)
			r.rec.emit(event.Event{Kind: event.GateResult, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
				Attempt: req.Number, MaxAttempts: MaxAttempts,
				Gate: &event.Gate{Kind: g.Kind, Command: g.Command, Status: gr.Status}})
		default:
			left := deadline.Sub(r.cfg.Now())
			if left <= 0 {
				// The attempt's time is used up (by the agent, or by the gates
				// before this one): this gate cannot run, and is not to blame.
				fmt.Fprintf(log, "\n# autobuild: gate %s not run: the attempt's time limit (%s) is used up\n", g.Kind, req.Timeout)
				gr.Status = state.GateNotRun
				gr.OutputSummary = "not run: the attempt's time limit is used up"
				timedOut = true
				results[g.Kind] = gr
				continue
			}
			fmt.Fprintf(log, "\n# autobuild: gate %s: %s\n", g.Kind, g.Command)
			res := proc.Run(ctx, proc.Spec{Shell: g.Command, Dir: wt, Timeout: left, Grace: r.cfg.Grace,
				HardStop: r.cfg.HardStop, Output: log, OnLine: r.outputLine(p, req.Number, "gate:"+g.Kind),
				Lines: r.rec.lineMode})
			if res.Canceled {
				return nil, false, true
			}
			gr.ExitCode, gr.DurationSeconds = res.ExitCode, res.Duration.Seconds()
			gr.OutputSummary = clip.Tail(res.Tail, 20)
			switch {
			case res.ExitCode == 0 && !res.TimedOut && res.Err == nil:
				gr.Status, gr.Passed = state.GatePassed, true
				fmt.Fprintf(log, "# autobuild: gate %s passed in %s\n", g.Kind, res.Duration.Round(time.Millisecond))
			case res.TimedOut:
				gr.Status = state.GateFailed
				timedOut = true
				fmt.Fprintf(log, "\n# autobuild: gate %s stopped: the attempt's time limit (%s) ran out while it ran\n", g.Kind, req.Timeout)
			default:
				gr.Status = state.GateFailed
				fmt.Fprintf(log, "# autobuild: gate %s failed (exit %d)\n", g.Kind, res.ExitCode)
			}
			if !gr.Passed {
				out := res.Tail
				if res.Err != nil && !res.TimedOut {
					out += "\n" + res.Err.Error()
				}
				failedGate = &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: res.ExitCode,
					Output: out, Declared: g.Declared}
			}
			r.rec.emit(event.Event{Kind: event.GateResult, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
				Attempt: req.Number, MaxAttempts: MaxAttempts,
				Gate: &event.Gate{Kind: g.Kind, Command: g.Command, Status: gr.Status, ExitCode: gr.ExitCode,
					DurationSeconds: gr.DurationSeconds}})
		}
		results[g.Kind] = gr
	}
	r.rec.phase(p.ID, func(ps *state.Phase) {
		ps.QualityGates = results
		ps.Verification.FreshVerification = state.GatePassed
		if failedGate != nil {
			ps.Verification.FreshVerification = state.GateFailed
		}
	})
	return failedGate, timedOut, false
}

func (r *phaseRunner) outputLine(p *plan.Phase, number int, stream string) func(string) {
	return func(line string) {
		r.rec.emit(event.Event{Kind: event.PhaseOutput, PhaseID: p.ID, DisplayID: p.DisplayID,
			Attempt: number, Stream: stream, Line: line})
	}
}

// fail records a failed attempt: its report, its diff, and the phase's status.
func (r *phaseRunner) fail(p *plan.Phase, req attemptRequest, started time.Time, seq int, wt string, rep failure.Report) attemptResult {
	now := r.cfg.Now()
	if rep.DurationSeconds == 0 {
		rep.DurationSeconds = now.Sub(started).Seconds()
	}
	rep.Attempt = req.Number
	if len(rep.SuggestedActions) == 0 {
		rep.SuggestedActions = failure.Suggest(rep)
	}
	// Against the phase's base, the diff holds the attempt's work even when
	// it was committed already (a file_conflict found at integration).
	r.integ.mu.Lock()
	base := r.bases[p.ID]
	r.integ.mu.Unlock()
	diffPath := ""
	if diff, err := gitx.DiffWorkingTree(context.Background(), wt, base); err == nil && diff != "" {
		diffPath = r.store.AttemptDiffPath(p.ID, seq)
		if os.WriteFile(diffPath, []byte(diff), 0o644) != nil {
			diffPath = ""
		}
	}
	r.rec.phase(p.ID, func(ps *state.Phase) {
		ps.Status = state.PhaseFailed
		ps.Error = &rep
		ps.Timestamps.Completed = &now
		ps.Timestamps.DurationSeconds = now.Sub(started).Seconds()
		if n := len(ps.Attempts); n > 0 {
			a := &ps.Attempts[n-1]
			a.Outcome, a.Error, a.Completed = state.OutcomeFailed, &rep, &now
			a.DurationSeconds = now.Sub(started).Seconds()
			a.DiffPath = r.rel(diffPath)
		}
	})
	r.rec.emit(event.Event{Kind: event.PhaseFailed, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Attempt: req.Number, MaxAttempts: MaxAttempts, Agent: req.Agent.Name, Failure: &rep,
		DurationSeconds: now.Sub(started).Seconds(), Usage: r.rec.attemptUsage(p.ID)})
	return attemptResult{Outcome: state.OutcomeFailed, Report: &rep}
}

// interrupted records an attempt stopped by Ctrl-C: not a failure, so resume
// re-runs it without using up the retry.
func (r *phaseRunner) interrupted(p *plan.Phase, req attemptRequest, started time.Time) attemptResult {
	now := r.cfg.Now()
	r.rec.phase(p.ID, func(ps *state.Phase) {
		ps.Status = state.PhasePending
		ps.Timestamps.Completed = &now
		ps.Timestamps.DurationSeconds = now.Sub(started).Seconds()
		if n := len(ps.Attempts); n > 0 {
			a := &ps.Attempts[n-1]
			a.Outcome, a.Completed = state.OutcomeInterrupted, &now
			a.DurationSeconds = now.Sub(started).Seconds()
		}
	})
	r.rec.emit(event.Event{Kind: event.PhaseInterrupted, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Attempt: req.Number, MaxAttempts: MaxAttempts})
	return attemptResult{Outcome: state.OutcomeInterrupted}
}

func (r *phaseRunner) complete(ctx context.Context, p *plan.Phase, req attemptRequest, started time.Time, wt string, commit *state.Commit) attemptResult {
	now := r.cfg.Now()
	r.rec.phase(p.ID, func(ps *state.Phase) {
		ps.Status = state.PhaseComplete
		ps.Commit = commit
		ps.Error = nil
		ps.Worktree = ""
		ps.Timestamps.Completed = &now
		ps.Timestamps.DurationSeconds = now.Sub(started).Seconds()
		if ps.Tasks.Total > 0 && ps.Tasks.Completed == 0 {
			ps.Tasks.Completed = ps.Tasks.Total
		}
		if n := len(ps.Attempts); n > 0 {
			a := &ps.Attempts[n-1]
			a.Outcome, a.Completed = state.OutcomeComplete, &now
			a.DurationSeconds = now.Sub(started).Seconds()
		}
	})
	dur := now.Sub(started).Seconds()
	r.rec.emit(event.Event{Kind: event.PhaseCompleted, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Attempt: req.Number, MaxAttempts: MaxAttempts, Agent: req.Agent.Name, DurationSeconds: dur,
		Usage: r.rec.attemptUsage(p.ID)})
	var line string
	switch {
	case commit.SHA != "":
		line = "committed " + clip.SHA(commit.SHA)
	case commit.Message != "" && commit.HasChanges():
		line = "committed on the run's line; lands when the run completes"
	default:
		line = "no changes to commit"
	}
	r.rec.emit(event.Event{Kind: event.PhaseIntegrated, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Commit: commit, Line: line})
	// The worktree's work is on the run's line now; drop it and its branch.
	cleanup := func() {
		_ = r.repo.RemoveWorktree(context.WithoutCancel(ctx), wt)
		_ = r.repo.DeleteBranch(context.WithoutCancel(ctx), r.integ.refs.phase(p.ID))
	}
	if r.eager {
		r.cleanups.Go(cleanup)
	} else {
		cleanup()
	}
	return attemptResult{Outcome: state.OutcomeComplete}
}

func (r *phaseRunner) previousDiff(id string) string {
	ps := r.rec.get(id)
	for i := len(ps.Attempts) - 1; i >= 0; i-- {
		if ps.Attempts[i].DiffPath != "" {
			return ps.Attempts[i].DiffPath
		}
	}
	return ""
}

// missingDeclaredGate returns a gate the user declared whose tool is not
// installed, looked up again now (an earlier phase may have installed it),
// or nil.
func (r *phaseRunner) missingDeclaredGate() *gates.Gate {
	for i, g := range r.gates {
		if g.Declared && g.ToolMissing && gates.Missing(g.Tool) {
			return &r.gates[i]
		}
	}
	return nil
}

// tidyWorktree undoes what the agent must not do, before the gates judge the
// work: commits it made are folded back into uncommitted changes (they would
// otherwise never reach the run's line), and edits of the plan, the user's
// record, are reverted (two phases ticking its boxes would conflict). It
// returns the files the work changes. Every phase passes through here, so
// the usual case costs two git commands: HEAD, and the status that also
// says whether the plan changed.
func (r *phaseRunner) tidyWorktree(ctx context.Context, p *plan.Phase, wt, base string, log io.Writer) ([]string, error) {
	// A worktree's .git is a file naming its repository. Without it (the
	// agent removed it, or ran git init), git here would find the enclosing
	// main repository: a reset below would move the user's branch.
	if fi, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("the agent removed or replaced the .git file of phase %s's worktree (%s), so its work cannot be read; nothing of it was committed", p.DisplayID, r.rel(wt))
	}
	head, err := r.repo.Head(ctx, wt)
	if err != nil {
		return nil, fmt.Errorf("reading the worktree of phase %s after the agent: %w", p.DisplayID, err)
	}
	if head != base {
		if err := r.repo.ResetSoft(ctx, wt, base); err != nil {
			return nil, fmt.Errorf("folding the agent's commits into phase %s's work: %w", p.DisplayID, err)
		}
		fmt.Fprintf(log, "# autobuild: the agent committed (HEAD was %s); its commits are folded into the phase's one commit\n", clip.SHA(head))
	}
	files := r.changedFiles(ctx, wt)
	if planRel := r.planInRepo(); planRel != "" && slices.Contains(files, planRel) {
		undone, err := r.repo.RestoreFile(ctx, wt, base, planRel)
		if err != nil {
			return nil, fmt.Errorf("restoring the plan in phase %s's worktree: %w", p.DisplayID, err)
		}
		if undone {
			fmt.Fprintf(log, "# autobuild: the agent changed the plan (%s); the change is undone: the plan is the user's record\n", planRel)
			files = r.changedFiles(ctx, wt)
		}
	}
	return files, nil
}

// planInRepo is the plan's path relative to the repository root, or ""
// when the plan lives outside the repository.
func (r *phaseRunner) planInRepo() string {
	abs, err := filepath.Abs(r.cfg.Plan.Path)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(r.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// logAgentEnd writes how the agent's process ended to the attempt log.
func logAgentEnd(log io.Writer, res proc.Result, limit, idle time.Duration) {
	took := res.Duration.Round(time.Millisecond)
	switch {
	case res.NotFound && res.Err != nil:
		fmt.Fprintf(log, "\n# autobuild: the agent could not start: %v\n", res.Err)
	case res.TimedOut:
		fmt.Fprintf(log, "\n# autobuild: the agent was stopped: it ran past the attempt's time limit (%s)\n", limit)
	case res.IdleTimedOut:
		fmt.Fprintf(log, "\n# autobuild: the agent was stopped: it printed nothing for %s\n", idle)
	case res.Aborted:
		fmt.Fprintf(log, "\n# autobuild: the agent was stopped after %s: it reported a failure no retry of its own can fix\n", took)
	case res.Err != nil:
		fmt.Fprintf(log, "\n# autobuild: the agent failed after %s: %v\n", took, res.Err)
	default:
		fmt.Fprintf(log, "\n# autobuild: the agent exited with status %d after %s\n", res.ExitCode, took)
	}
}

func (r *phaseRunner) changedFiles(ctx context.Context, wt string) []string {
	files, err := gitx.StatusFiles(ctx, wt)
	if err != nil {
		return nil
	}
	return files
}

// abs makes a path relative to the repository root absolute: agents run in
// a worktree, where a root-relative path means nothing.
func (r *phaseRunner) abs(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(r.root, filepath.FromSlash(path))
}

// rel makes a path relative to the repository root for state files and
// messages; the state directory moves with the repository.
func (r *phaseRunner) rel(path string) string {
	if path == "" {
		return ""
	}
	if rel, err := filepath.Rel(r.root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// infraFailure reports a failure of autobuild's own machinery (git, the
// file system) during an attempt as an agent_error, so it gets the retry.
func infraFailure(req attemptRequest, started time.Time, err error) failure.Report {
	if rep, ok := diskFullReport(err); ok {
		rep.Attempt = req.Number
		return rep
	}
	return failure.Report{Type: failure.AgentError, Message: err.Error(), Retryable: true, Attempt: req.Number}
}

// fixAttempts are the reports of earlier attempts that tried a fix: those
// of types that use up the retry.
func fixAttempts(reports []failure.Report) []failure.Report {
	var out []failure.Report
	for _, r := range reports {
		if r.Type.ConsumesRetry() {
			out = append(out, r)
		}
	}
	return out
}

func failed(ev failure.Evidence) bool {
	return agentFailed(ev) || ev.Gate != nil || ev.ResultStatus == "failed" ||
		(ev.ResultRequired && (!ev.ResultFound || ev.ResultParseErr != "")) ||
		(ev.TasksTotal > 0 && ev.TasksCompleted < ev.TasksTotal)
}

func agentFailed(ev failure.Evidence) bool {
	return ev.TimedOut || ev.IdleTimedOut || ev.AgentNotFound || ev.AgentExitCode != 0
}

func claimed(ev failure.Evidence) string {
	if ev.ResultFound {
		return ev.ResultStatus
	}
	return ""
}

func agentCommand(a agent.Agent) string {
	if a.Shell != "" {
		return a.Shell
	}
	return strings.Join(a.Args, " ")
}

func gatePlan(gs []gates.Gate) []plan.Gate {
	out := make([]plan.Gate, 0, len(gs))
	for _, g := range gs {
		if g.Declared || !g.ToolMissing {
			out = append(out, plan.Gate{Kind: g.Kind, Command: g.Command})
		}
	}
	return out
}
