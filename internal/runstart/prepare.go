// Package runstart starts a run: the checks before anything is made (the
// work tree clean, the state directory not tracked, its lock:
// statedir.go), the decision between a new run and a resumed one with the
// phases' states written (Prepare), the plan's recorded path (planpath.go)
// and the run's branch names (refs.go). Reconciling the line with git on
// resume is package line's (Reconcile); the engine runs the rest.
package runstart

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

var errNoResume = errors.New("nothing to resume")

// Options is what starting a run takes of the run's configuration.
type Options struct {
	// Dir is where autobuild was started.
	Dir  string
	Plan *plan.Plan
	// CommitMode and Schedule are the run's; "" takes the resumed run's
	// (or, on --fresh, the earlier run's: state.Carry).
	CommitMode state.CommitMode
	Schedule   state.Schedule
	Review     state.ReviewMode
	Agents     []agent.Agent
	// SimScenario and AllowEmptyPhases are recorded in run.json.
	SimScenario      string
	AllowEmptyPhases bool
	// Resume and Fresh are the --resume and --fresh flags.
	Resume, Fresh bool
	Now           func() time.Time
}

// Prepare decides between a new run and a resumed one (docs/running.md) and returns
// the run and the phases' states, written to disk, with the config the run
// goes on with: a --fresh start carries the earlier run's commit mode and
// schedule over (state.Carry). The caller's config is not changed.
func Prepare(ctx context.Context, given Options, repo *gitx.Repo, store *state.Store) (Options, *state.Run, map[phaseid.ID]*state.Phase, error) {
	cfg := &given
	run, phases, err := prepareRun(ctx, cfg, repo, store)
	return *cfg, run, phases, err
}

func prepareRun(ctx context.Context, cfg *Options, repo *gitx.Repo, store *state.Store) (*state.Run, map[phaseid.ID]*state.Phase, error) {
	existing, err := store.LoadRun()
	if err != nil && !errors.Is(err, state.ErrNoRun) {
		if !cfg.Fresh {
			return nil, nil, exitcode.Refusedf("%w", err)
		}
		// --fresh is the way out that the corrupt file's message names:
		// the file goes with the rest of .autobuild/.
		existing = nil
	}
	if cfg.Fresh {
		// Starting over keeps the commit mode and the schedule the run was
		// started with unless the command line names others (state.Carry).
		choice, _ := state.Carry(existing, state.Choice{CommitMode: cfg.CommitMode, Schedule: cfg.Schedule})
		cfg.CommitMode, cfg.Schedule = choice.CommitMode, choice.Schedule
		// Asked before anything is removed: the new run needs a mode, and
		// a refusal after the removal would leave nothing of either run.
		if err := checkCommitMode(cfg.CommitMode); err != nil {
			return nil, nil, err
		}
		// Only the branches the earlier run recorded are deleted: with its
		// run.json unreadable, none are.
		var old *state.Refs
		if existing != nil {
			refs := state.RefsOf(*existing)
			old = &refs
		}
		if err := cleanPhaseWorktrees(ctx, repo, store, old, cfg.Plan); err != nil {
			return nil, nil, exitcode.Refusedf("removing the worktrees of the earlier run: %w", err)
		}
		_ = line.RemoveOldLineWorktree(ctx, repo, store)
		if old != nil {
			_ = repo.DeleteBranch(ctx, old.Integration())
		}
		if err := store.Remove(); err != nil {
			return nil, nil, exitcode.Refusedf("removing %s: %w", store.Dir(), err)
		}
		if err := store.Init(); err != nil {
			return nil, nil, exitcode.Refusedf("creating %s: %w", store.Dir(), err)
		}
		existing = nil
	}
	if existing == nil {
		return newRun(ctx, cfg, repo, store)
	}
	return resumeRun(ctx, cfg, repo, store, existing)
}

func newRun(ctx context.Context, cfg *Options, repo *gitx.Repo, store *state.Store) (*state.Run, map[phaseid.ID]*state.Phase, error) {
	if cfg.Resume {
		return nil, nil, exitcode.Usagef("%w: %s holds no run yet; start one without --resume (and with --commit=...)", errNoResume, store.Dir())
	}
	if err := checkCommitMode(cfg.CommitMode); err != nil {
		return nil, nil, err
	}
	branch, err := checkout.CheckTargetBranch(ctx, repo, nil)
	if err != nil {
		return nil, nil, err
	}
	// A directory left without run.json (a crash before the first write)
	// may still hold worktrees. Their branches are not known, so they stay.
	if err := cleanPhaseWorktrees(ctx, repo, store, nil, cfg.Plan); err != nil {
		return nil, nil, exitcode.Refusedf("removing stale worktrees: %w", err)
	}
	// Not a reason to refuse: the line no longer needs its directory.
	_ = line.RemoveOldLineWorktree(ctx, repo, store)
	base, err := repo.Head(ctx, "")
	if err != nil {
		return nil, nil, exitcode.Refusedf("%w", err)
	}
	now := cfg.Now().UTC()
	run := &state.Run{
		SchemaVersion: state.SchemaVersion, RunID: newRunID(now), PlanPath: recordedPlanPath(repo.Root(), cfg.Dir, cfg.Plan.Path), PlanHash: cfg.Plan.Hash(),
		PlanTitle: cfg.Plan.Title, CommitMode: cfg.CommitMode, Schedule: cfg.Schedule.OrDefault(), Review: cfg.Review, Agents: agentNames(cfg),
		AgentSpecs: agentSpecs(cfg), Scenario: cfg.SimScenario, AllowEmptyPhases: cfg.AllowEmptyPhases,
		Branch: branch, BaseCommit: base, IntegrationCommit: base, Status: state.RunRunning,
		PID: os.Getpid(), Started: now, Updated: now,
	}
	if err := store.SaveRun(run); err != nil {
		return nil, nil, exitcode.Refusedf("writing run state: %w", err)
	}
	phases := make(map[phaseid.ID]*state.Phase, len(cfg.Plan.Phases))
	initial := make([]*state.Phase, 0, len(cfg.Plan.Phases))
	batchOf := batchIndex(cfg.Plan)
	for _, p := range cfg.Plan.Phases {
		ps := &state.Phase{PhaseID: p.ID, Status: state.PhasePending, MaxAttempts: schedule.MaxAttempts}
		refreshFromPlan(ps, cfg.Plan, p, batchOf[p.ID])
		if old, dup := phases[p.ID]; dup {
			*old = *ps // The last phase of an id wins, as when each had its file.
			continue
		}
		phases[p.ID] = ps
		initial = append(initial, ps)
	}
	// One file for all of them: each phase gets its own at its first
	// change (docs/state.md).
	if err := store.SaveInitial(initial); err != nil {
		return nil, nil, exitcode.Refusedf("writing phase state: %w", err)
	}
	return run, phases, nil
}

func resumeRun(ctx context.Context, cfg *Options, repo *gitx.Repo, store *state.Store, run *state.Run) (*state.Run, map[phaseid.ID]*state.Phase, error) {
	if err := samePlanFile(repo.Root(), cfg, run, store); err != nil {
		return nil, nil, err
	}
	if run.PlanHash != cfg.Plan.Hash() && !cfg.Resume {
		return nil, nil, exitcode.Refusedf("the plan changed since the run in %s started: pass --resume to continue with the edited plan (completed phases stay complete), or --fresh to start over", store.Dir())
	}
	if cfg.CommitMode != "" && cfg.CommitMode != run.CommitMode {
		return nil, nil, exitcode.Usagef("this run was started with --commit=%s: resume it with the same mode, or start over with --fresh", run.CommitMode)
	}
	if _, err := checkout.CheckTargetBranch(ctx, repo, run); err != nil {
		return nil, nil, err
	}
	stored, err := store.LoadPhases()
	if err != nil {
		return nil, nil, exitcode.Refusedf("%w", err)
	}
	refs := state.RefsOf(*run)
	if err := cleanPhaseWorktrees(ctx, repo, store, &refs, cfg.Plan); err != nil {
		return nil, nil, exitcode.Refusedf("removing stale worktrees: %w", err)
	}
	phases := map[phaseid.ID]*state.Phase{}
	batchOf := batchIndex(cfg.Plan)
	for _, p := range cfg.Plan.Phases {
		ps := stored[p.ID]
		var before []byte
		if ps != nil {
			before, _ = json.Marshal(ps)
		}
		if ps == nil {
			// A missing file means pending: deleting it is documented recovery.
			ps = &state.Phase{PhaseID: p.ID, Status: state.PhasePending}
		}
		refreshFromPlan(ps, cfg.Plan, p, batchOf[p.ID])
		if held := record.KeepReview(ps); ps.Status != state.PhaseComplete && ps.Status != state.PhaseSkipped && !held {
			// Failed, running, blocked and pending phases run again with a
			// fresh attempt count; their history stays.
			ps.Status, ps.Attempt, ps.Error, ps.BlockedBy, ps.Worktree = state.PhasePending, 0, nil, nil, ""
			for i := range ps.Attempts {
				if ps.Attempts[i].Outcome == state.OutcomeRunning {
					ps.Attempts[i].Outcome = state.OutcomeInterrupted
				}
			}
		}
		ps.MaxAttempts = schedule.MaxAttempts
		phases[p.ID] = ps
		// A file that would not change is not written again: a resumed
		// large plan is mostly pending phases that never ran.
		if after, err := json.Marshal(ps); err == nil && before != nil && bytes.Equal(before, after) {
			continue
		}
		if err := store.SavePhase(ps); err != nil {
			return nil, nil, exitcode.Refusedf("writing phase state: %w", err)
		}
	}
	run.PlanPath, run.PlanHash, run.PlanTitle, run.Agents = recordedPlanPath(repo.Root(), cfg.Dir, cfg.Plan.Path), cfg.Plan.Hash(), cfg.Plan.Title, agentNames(cfg)
	run.AgentSpecs, run.Scenario = agentSpecs(cfg), cfg.SimScenario
	run.AllowEmptyPhases = run.AllowEmptyPhases || cfg.AllowEmptyPhases
	// A resume keeps the run's schedule unless --schedule names one.
	if cfg.Schedule != "" {
		run.Schedule = cfg.Schedule
	}
	run.Schedule = run.Schedule.OrDefault()
	if cfg.Review != "" {
		run.Review = cfg.Review
	}
	return run, phases, nil
}

// refreshFromPlan copies what the plan says about a phase into its state:
// the plan is the user's record and may have been edited before a resume.
func refreshFromPlan(ps *state.Phase, pl *plan.Plan, p *plan.Phase, batch int) {
	ps.DisplayID, ps.PhaseName, ps.Batch = p.DisplayID, p.Name, batch
	ps.Dependencies = state.Dependencies{DependsOn: nonNil(p.DependsOn), ParallelWith: nonNil(p.ParallelWith),
		Blocks: nonNil(pl.Dependents(p.ID))}
	if ps.Tasks.Total == 0 {
		ps.Tasks = state.Tasks{Total: p.Tasks, Completed: p.TasksDone}
	}
	if p.Done() {
		ps.Status = state.PhaseSkipped
	} else if ps.Status == state.PhaseSkipped {
		ps.Status = state.PhasePending
	}
}

// cleanPhaseWorktrees removes the phase worktrees a stopped run left behind
// and, when refs is known, its phase branches; an older autobuild's
// integration worktree is left to reconcile (lineTip), which keeps its
// branch.
func cleanPhaseWorktrees(ctx context.Context, repo *gitx.Repo, store *state.Store, refs *state.Refs, pl *plan.Plan) error {
	entries, err := os.ReadDir(store.WorktreesDir())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var paths []string
	for _, e := range entries {
		if e.Name() != state.IntegrationWorktreeName {
			paths = append(paths, filepath.Join(store.WorktreesDir(), e.Name()))
		}
	}
	// One prune with the removals; with nothing to remove and no branches
	// to delete, none: a worktree add prunes before it adds.
	if len(paths) > 0 || refs != nil {
		if err := repo.RemoveWorktrees(ctx, paths...); err != nil {
			return err
		}
	}
	if refs == nil {
		return nil
	}
	return DeletePhaseBranches(ctx, repo, *refs, pl)
}

func checkCommitMode(mode state.CommitMode) error {
	if mode == "" {
		return exitcode.Usagef("--commit is required for a new run: --commit=auto (one commit per phase), --commit=message-only (changes left uncommitted, with a script of commits) or --commit=single (one commit at the end)")
	}
	if _, err := state.ParseCommitMode(string(mode)); err != nil {
		return exitcode.Usagef("%v", err)
	}
	return nil
}

func batchIndex(pl *plan.Plan) map[phaseid.ID]int {
	out := map[phaseid.ID]int{}
	for _, b := range pl.Batches() {
		for _, p := range b.Phases {
			out[p.ID] = b.Index
		}
	}
	return out
}

func agentNames(cfg *Options) []string {
	names := make([]string, len(cfg.Agents))
	for i, a := range cfg.Agents {
		names[i] = a.Name
	}
	return names
}

// agentSpecs are the --agent values of the run's agents, for run.json: a
// resume without --agent runs them again.
func agentSpecs(cfg *Options) []string {
	specs := make([]string, len(cfg.Agents))
	for i, a := range cfg.Agents {
		specs[i] = a.Spec
	}
	return specs
}

func nonNil(s []phaseid.ID) []phaseid.ID {
	if s == nil {
		return []phaseid.ID{}
	}
	return s
}
