// Package line is the run's line and landing: a phase's commit made from
// its workspace (CommitOwn), picked onto the line in git's objects, the
// landings queued and verified together (landqueue.go, verify.go,
// verifyland.go; the run's base: redbase.go), conflicts named by file and
// line range, and the end of the modes that land once (finish: the single
// commit, or commits.sh). Your branch is the line in auto mode: the
// Integrator fast-forwards it through package checkout's Guard.
package line

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/crashpoint"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Integrator brings completed phases onto the run's line, one at a time.
type Integrator struct {
	repo *gitx.Repo
	rec  *record.Recorder
	// strategy is the run's commit mode's way of landing (strategy.go).
	strategy Strategy
	mainDir  string // the user's work tree
	// Refs names the run's branches; refs.Integration() is the run's line:
	// completed phases are picked onto it in completion order, in git's
	// objects (gitx.Repo.Pick), and the branch moved. No worktree holds
	// it. In auto mode your branch is the line, fast-forwarded as phases
	// land, and the line's branch only follows it when a session ends.
	Refs state.Refs
	// LockHeld reports whether the run still holds its lock; nil in tests
	// that run an integrator without one. Written once before the run.
	LockHeld func() error
	// waiting counts the landings waiting for mu. In auto mode a landing
	// that others wait behind leaves the fast-forward of your checkout to
	// the last of them (catchUp): phases that finish together move your
	// checkout once.
	waiting atomic.Int32
	// Guard watches over your checkout (package checkout): the outside reads,
	// the fast-forward, following your branch.
	Guard *checkout.Guard
	// tipNow is tip, for Tip: a phase about to start reads it without
	// waiting for the landings queued on mu.
	tipNow atomic.Pointer[string]
	// Verifier verifies a landing picked onto a line that moved since the
	// phase started (verifyland.go); nil under --verify=off.
	Verifier *Verifier
	// queue holds the landings waiting for mu (landqueue.go); gating
	// counts the attempts between their agent's end and their landing.
	queue  landQueue
	Gating gatingCount

	mu       sync.Mutex // guards the fields below
	tip      string
	tips     []string // every tip the line has had, oldest first
	landed   []landedPhase
	branchAt string // auto mode: where your branch was last moved to, tip or one before it
}

// landedPhase remembers what a phase changed, to name both sides of a
// conflict with a phase that lands after it.
type landedPhase struct {
	displayID phaseid.Display
	who       string // names a change that is not a phase (the user's commits)
	base, sha string // the phase's own commit and the commit it started from
	files     []string
	tipIndex  int // index in tips of the tip this phase produced
}

func New(repo *gitx.Repo, rec *record.Recorder, strategy Strategy, mainDir, tip string) *Integrator {
	in := &Integrator{repo: repo, rec: rec, strategy: strategy, mainDir: mainDir, tips: []string{tip}, branchAt: tip,
		Refs: state.RefsOf(rec.RunCopy())}
	in.Guard = checkout.New(repo, rec, mainDir, in.Refs, in)
	in.setTip(tip)
	return in
}

// setTip moves the line's tip. Called with mu held (or before the run).
func (in *Integrator) setTip(sha string) {
	in.tip = sha
	in.tipNow.Store(&sha)
}

// Tip returns the run's current integration commit. A phase that starts
// from it may see a tip a failed fast-forward then takes back
// (undoLanding); the run halts then, and a landing of that phase would
// pick only its own change.
func (in *Integrator) Tip() string {
	return *in.tipNow.Load()
}

// Handover is what an attempt hands to landing: the phase's worktree, the
// commit it started from, the agent's commit message and what the
// executor knows of the change (which spares the commit a walk of the
// whole tree), or the work as a commit made elsewhere.
type Handover struct {
	Workspace, Base, AgentMessage string
	Known                         gitx.Known
	// Commit, when set, is the work as a commit in this repository's
	// objects whose tree is the phase's whole change on Base (an executor
	// that works elsewhere hands it over: executor.Result.Commit). The
	// phase's commit is made from its tree, and Workspace is not read.
	Commit string
	// Queued, when set, is called once the landing is queued.
	Queued func()
}

// Land commits the phase's work in its worktree and puts it on the run's
// line (pick). outside is your checkout as the outside check read it just
// before (ok false when it read none). Overlapping edits with a phase that landed since this one
// started come back as a file_conflict report; nothing is merged then.
func (in *Integrator) Land(ctx context.Context, p *plan.Phase, h Handover, outside checkout.State) (*state.Commit, *failreport.Report, error) {
	// The message names what is committed: git add stages it, then the
	// message is made (no status of its own first).
	var msg string
	base, agentMsg := h.Base, h.AgentMessage
	message := func(ch gitx.Changes) string {
		msg = commitMessage(p, agentMsg, ch.Files())
		return msg
	}
	var made gitx.Made
	var ch gitx.Changes
	var err error
	switch {
	case h.Commit != "":
		made, ch, err = in.commitHandedOver(ctx, p, h, message)
	case h.Workspace == "":
		// Neither a commit nor a worktree: the repository's root is your
		// checkout, never the phase's work.
		err = errors.New("the attempt handed over neither a commit nor a worktree")
	default:
		made, ch, err = in.repo.CommitOwn(ctx, h.Workspace, h.Known, message)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("committing phase %s: %w", p.DisplayID, err)
	}
	sha := made.SHA
	if sha == "" {
		return &state.Commit{Message: commitMessage(p, agentMsg, nil)}, nil, nil
	}
	commit := &state.Commit{Message: msg, FilesCreated: ch.Created, FilesModified: ch.Modified, FilesDeleted: ch.Deleted}
	crashpoint.At("after-commit", p.ID)

	l := &landing{p: p, base: base, made: made, ch: ch, outside: outside}
	in.waiting.Add(1)
	in.enqueue(l)
	if h.Queued != nil {
		h.Queued()
	}
	in.mu.Lock()
	in.waiting.Add(-1)
	defer in.mu.Unlock()
	prevTip := in.tip
	if !l.done {
		// The first of the landings queued here lands them all, verified
		// together (landqueue.go); the others find theirs done.
		in.landQueued(ctx)
	}
	rep, err := l.rep, l.err
	// Every landing ends here, landed or not: in auto mode the last of a
	// queue of them brings your checkout up to the line.
	if sRep := in.strategy.settle(ctx, in, p, prevTip); sRep != nil && rep == nil && err == nil {
		rep = sRep
	}
	switch {
	case err != nil:
		return nil, nil, err
	case rep != nil:
		return nil, rep, nil
	}
	// In auto mode the commit is on the line, and your branch has it or
	// gets it from the landing queued behind this one.
	if commit.SHA = in.strategy.recorded(l.tip); commit.SHA != "" {
		crashpoint.At("after-fastforward", p.ID)
	}
	return commit, nil, nil
}

// commitHandedOver makes the phase's commit from the tree of the commit an
// executor handed over, on the phase's base, and moves the phase's branch
// to it: no worktree holds the work.
func (in *Integrator) commitHandedOver(ctx context.Context, p *plan.Phase, h Handover, message func(gitx.Changes) string) (gitx.Made, gitx.Changes, error) {
	tree, err := in.repo.TreeOf(ctx, h.Commit)
	if err != nil {
		return gitx.Made{}, gitx.Changes{}, fmt.Errorf("the work handed over as commit %s: %w", h.Commit, err)
	}
	return in.repo.CommitTree(ctx, in.Refs.Phase(p.ID), tree, h.Base, message)
}

// admit checks that the phase may land now: a report when it cannot (the
// lock lost, your branch changed, a file of yours in the way). In auto mode the line moves onto your
// commits made since the last landing (followUser). Called with mu held.
func (in *Integrator) admit(ctx context.Context, l *landing) *failreport.Report {
	if rep := in.checkLock(l.p); rep != nil {
		return rep
	}
	if rep := in.strategy.admit(ctx, in, l); rep != nil {
		return rep
	}
	return in.Guard.UserFilesInTheWay(ctx, l.p, allFiles(l.ch))
}

// publish puts the links on the run's line, in order: the line's branch
// moved once to the last of them (not in auto mode, where your branch is
// the line and catchUp moves it), and each phase remembered as landed.
// Called with mu held.
func (in *Integrator) publish(ctx context.Context, links []link) error {
	if len(links) == 0 {
		return nil
	}
	last := links[len(links)-1].tip
	// In auto mode your branch is the run's line: the fast-forward
	// (catchUp) lands the phase, and the line's branch is set from yours
	// when a session ends. The other modes keep the line in its branch.
	return in.strategy.publish(ctx, in, last, links[len(links)-1].l.p, func() {
		for _, k := range links {
			l := k.l
			crashpoint.At("after-integrate", l.p.ID)
			in.setTip(k.tip)
			in.tips = append(in.tips, k.tip)
			in.landed = append(in.landed, landedPhase{displayID: l.p.DisplayID, base: l.base, sha: l.made.SHA,
				files: allFiles(l.ch), tipIndex: len(in.tips) - 1})
			l.settle(nil, nil)
			l.tip = k.tip
		}
	})
}

// catchUp fast-forwards your branch to the line's tip, unless another
// landing waits behind this one (it will). When your branch refuses, the
// phase that has just landed (its landing moved the tip from prevTip) is
// taken back off the line and the halt says why. Called with mu held, in
// auto mode.
func (in *Integrator) catchUp(ctx context.Context, p *plan.Phase, prevTip string) *failreport.Report {
	if in.branchAt == in.tip || in.waiting.Load() > 0 {
		return nil
	}
	if rep := in.checkLock(p); rep != nil {
		return rep // your checkout is not the run's to move any more
	}
	if err := in.Guard.FastForward(ctx, in.tip); err != nil {
		if in.tip != prevTip {
			return in.undoLanding(p, prevTip, err)
		}
		return checkout.BranchReport(p, fmt.Sprintf("your branch refused the run's landed phases (%v): check your checkout "+
			"(git status, git log), then resume", err))
	}
	in.branchAt = in.tip
	return nil
}

// pick returns the commit that puts the phase's commit on top of the line:
// the commit itself when its parent is the line's tip (the phase started
// from it and nothing landed meanwhile), else a pick in git's objects of
// its own change. Its parent is a tip of the line, unless the line was
// taken back past it while the phase ran (undoLanding) or an executor made
// it on another commit: then only the phase's commit is picked, as
// cherry-pick would. Called with mu held.
func (in *Integrator) pick(ctx context.Context, c gitx.Made) (string, []string, error) {
	if c.Parent == in.tip {
		return c.SHA, nil, nil
	}
	return in.repo.Pick(ctx, in.tip, c.SHA, slices.Contains(in.tips, c.Parent))
}

// conflictReport names each conflicted file and the line ranges both phases
// changed in it. Called with mu held.
func (in *Integrator) conflictReport(ctx context.Context, p *plan.Phase, base, sha string, files []string) *failreport.Report {
	since := 0
	if i := slices.Index(in.tips, base); i >= 0 {
		since = i + 1
	}
	var details, others []string
	bothCreated := true // every file was created by this phase and each other one
	for _, f := range files {
		mine, _ := gitx.ChangeOf(ctx, in.mainDir, base, sha, f)
		line := fmt.Sprintf("%s: phase %s %s", f, p.DisplayID, changeText(mine))
		bothCreated = bothCreated && mine.Created
		named := false
		for _, l := range in.landed {
			if l.tipIndex < since || !slices.Contains(l.files, f) {
				continue
			}
			theirs, _ := gitx.ChangeOf(ctx, in.mainDir, l.base, l.sha, f)
			name := cmp.Or(l.who, "phase "+string(l.displayID))
			line += fmt.Sprintf(", %s %s", name, changeText(theirs))
			bothCreated = bothCreated && theirs.Created
			named = true
			if !slices.Contains(others, name) {
				others = append(others, name)
			}
		}
		bothCreated = bothCreated && named
		details = append(details, line)
	}
	who := "a phase that landed first"
	if len(others) > 0 {
		who = strings.Join(others, ", ")
	}
	msg := fmt.Sprintf("phase %s and %s changed overlapping lines of %s", p.DisplayID, who, strings.Join(files, ", "))
	if bothCreated {
		// Two new files of the same name have no lines in common to name.
		msg = fmt.Sprintf("phase %s and %s both created %s", p.DisplayID, who, strings.Join(files, ", "))
	}
	rep := failreport.Report{
		Type:         failreport.FileConflict,
		Message:      msg,
		Details:      strings.Join(details, "\n"),
		Retryable:    false,
		FilesChanged: files,
		BlockedOn:    "overlapping edits by parallel phases",
	}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep
}

// Finish lands the run's line when the run completes, as its commit mode
// does (Strategy.finish): single makes one commit, message-only leaves the
// changes in the work tree and writes commits.sh. It returns the single
// commit's sha, if one was made.
func (in *Integrator) Finish(ctx context.Context, title string, phases []*state.Phase, layout *state.Store) (string, error) {
	if in.LockHeld != nil {
		if err := in.LockHeld(); err != nil {
			return "", err
		}
	}
	return in.strategy.finish(ctx, in, title, phases, layout)
}

// commitMessage is the agent's message when its result object gave one, else
// a conventional message from the phase; both carry the phase trailer that
// resume reconciles from.
func commitMessage(p *plan.Phase, agentMsg string, files []string) string {
	// The agent's message becomes the git subject, printed by git log, the
	// status command and the printers: no escape sequence may survive.
	agentMsg = sanitize.Text(agentMsg)
	if strings.TrimSpace(agentMsg) != "" {
		return strings.TrimRight(agentMsg, "\n") + "\n\n" + gitx.TrailerKey + ": " + string(p.ID) + "\n"
	}
	return sanitize.Text(gitx.ConventionalMessage(gitx.MessageInput{PhaseID: p.ID, DisplayID: p.DisplayID, Name: p.Name, Files: files}))
}

// singleMessage is the message of the one commit of --commit=single: the
// plan's title, the phases it holds, and a trailer per phase, so the commit
// says which phases landed in it as the per-phase commits do.
func singleMessage(title string, phases []*state.Phase) string {
	title = strings.TrimSpace(title)
	if title == "" {
		title = "implement the plan"
	}
	var b, trailers strings.Builder
	fmt.Fprintf(&b, "feat: %s\n\nImplemented by autobuild, phase by phase:\n", title)
	for _, p := range phases {
		if p.Status == state.PhaseComplete {
			fmt.Fprintf(&b, "- Phase %s: %s\n", p.DisplayID, p.PhaseName)
			fmt.Fprintf(&trailers, "%s: %s\n", gitx.TrailerKey, p.PhaseID)
		}
	}
	if trailers.Len() > 0 {
		b.WriteString("\n" + trailers.String())
	}
	// The title and the names are the plan's.
	return sanitize.Text(b.String())
}

func allFiles(ch gitx.Changes) []string {
	return append(append(slices.Clone(ch.Created), ch.Modified...), ch.Deleted...)
}

// changeText says how a phase changed a file: "created it" or "changed
// lines 3-4".
func changeText(c gitx.FileChange) string {
	if c.Created {
		return "created it"
	}
	return "changed lines " + ranges(c.Ranges)
}

func ranges(rs []gitx.LineRange) string {
	if len(rs) == 0 {
		return "?"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}
