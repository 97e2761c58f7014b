package line

import (
	"context"
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Strategy is how a commit mode lands the run's work (docs/running.md),
// chosen once per run from its mode (StrategyFor). Every step that differs
// between the modes asks it: what must hold before a phase lands, what
// moves when it lands, what the phase records, what happens when the run
// completes, reconcile on resume, and the words that say where the work
// is. A new mode is its constant in state/commitmode.go and a Strategy
// here (strategies.go).
type Strategy interface {
	// Mode is the commit mode it lands.
	Mode() state.CommitMode
	// Help says in a few words what the mode does (completion, help).
	Help() string
	// MakesCommits says whether the run commits at all (the identity git
	// commits with matters then).
	MakesCommits() bool

	// admit checks what this mode needs before a phase lands, beyond the
	// run's lock and your ignored files. Called with in.mu held.
	admit(ctx context.Context, in *Integrator, l *landing) *failreport.Report
	// publish puts the line at last (p is the last phase on it): what
	// holds the line moves, around land, which moves the integrator's
	// tip and remembers the phases landed. Called with in.mu held.
	publish(ctx context.Context, in *Integrator, last string, p *plan.Phase, land func()) error
	// settle ends every landing, landed or not: a report that halts the
	// phase. Called with in.mu held; prevTip is the tip before it.
	settle(ctx context.Context, in *Integrator, p *plan.Phase, prevTip string) *failreport.Report
	// recorded is the commit a landed phase records when tip holds it:
	// tip itself, or "" when the work lands only at the end.
	recorded(tip string) string
	// finish lands the line when the run completes; the sha of a commit
	// it made, if any.
	finish(ctx context.Context, in *Integrator, title string, phases []*state.Phase, layout *state.Store) (string, error)
	// reconcile brings the line's tip in line with git on resume: the
	// phases that landed are recovered (r.recover) in its order.
	reconcile(ctx context.Context, r reconciling, tip string) (string, error)

	// SessionEnd moves the line's branch as a session ends with work
	// left (the run not complete, or its clean-up not done).
	SessionEnd(ctx context.Context, repo *gitx.Repo, refs state.Refs, tip string)
	// CompleteReason is why a complete run is complete, given the commit
	// its finish made (""); "" for the plain "all phases complete".
	CompleteReason(finalCommit, branch string) string
	// LeftChanges is what to do about uncommitted changes in your work
	// tree that a run of this mode, ended with status, may have left as
	// its own work; "" when it leaves none. For a running run it holds
	// only when every phase was done (the caller checks).
	LeftChanges(status state.RunStatus) string
	// Summary says where the work of a complete run is, for the summary
	// box; stateDir is the state directory as the person sees it.
	Summary(run state.Run, stateDir string) string
	// Commits is how many commits the run made, given how many phases
	// recorded one.
	Commits(run state.Run, perPhase int) int
}

// StrategyFor returns the strategy of a commit mode.
func StrategyFor(mode state.CommitMode) (Strategy, error) {
	for _, s := range Strategies() {
		if s.Mode() == mode {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%q is not a commit mode: %s", mode, state.CommitModeNames())
}

// Strategies lists one strategy per commit mode, in state.CommitModes'
// order.
func Strategies() []Strategy {
	return []Strategy{yourBranch{}, messageOnly(), single()}
}
