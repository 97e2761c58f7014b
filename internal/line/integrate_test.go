package line

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestSingleMessage(t *testing.T) {
	t.Parallel()
	phases := []*state.Phase{
		{PhaseID: "1", DisplayID: "1", PhaseName: "Model", Status: state.PhaseComplete},
		{PhaseID: "2a", DisplayID: "2A", PhaseName: "API \x1b]52;c;aGk=\x07", Status: state.PhaseComplete},
		{PhaseID: "3", DisplayID: "3", PhaseName: "Not run", Status: state.PhaseBlocked},
	}
	require.Equal(t, "feat: Todo app\n\nImplemented by autobuild, phase by phase:\n"+
		"- Phase 1: Model\n- Phase 2A: API \n\n"+
		gitx.TrailerKey+": 1\n"+gitx.TrailerKey+": 2a\n", singleMessage("  Todo app ", phases))
	require.Equal(t, "feat: implement the plan\n\nImplemented by autobuild, phase by phase:\n", singleMessage("", phases[2:]),
		"no title, nothing complete: no trailer")
}

// messageOnlyLine builds a repository whose run's line holds two phase
// commits on top of base: phase 1 writes a.txt and b.txt, phase 2 changes
// b.txt again. It returns the integrator of that run (message-only mode)
// and the repository.
func messageOnlyLine(t *testing.T) (*Integrator, string) {
	t.Helper()
	ctx := context.Background()
	dir := gitRepo(t, "# plan\n")
	base := runGit(t, dir, "rev-parse", "HEAD")
	run := &state.Run{RunID: "r1", BaseCommit: base, CommitMode: state.CommitMessageOnly}
	refs := state.RefsOf(*run)
	runGit(t, dir, "switch", "-q", "-c", refs.Integration())
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("a.txt", "a from 1\n")
	write("b.txt", "one\ntwo\nthree\n")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "feat: phase one\n\n"+gitx.TrailerKey+": 1")
	write("b.txt", "one\ntwo\nthree, by 2\n")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "feat: phase two\n\n"+gitx.TrailerKey+": 2")
	runGit(t, dir, "switch", "-q", "main")

	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	rec := record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{})
	return New(repo, rec, messageOnly(), dir, base), dir
}

// commits.sh stages each phase's own change: a file a later phase changes
// again comes from a patch, so the first commit holds only phase 1's
// version and the script leaves nothing uncommitted.
func TestCommitsScriptMakesOneCommitPerPhase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	in, dir := messageOnlyLine(t)
	phases := []*state.Phase{
		{PhaseID: "1", DisplayID: "1", PhaseName: "One", Status: state.PhaseComplete},
		{PhaseID: "2", DisplayID: "2", PhaseName: "Two", Status: state.PhaseComplete},
	}
	script, err := in.commitsScript(ctx, phases, state.Open(dir))
	require.NoError(t, err)
	require.Contains(t, script, "# Phase 1: One\ngit apply --cached .autobuild/patches/01-phase-1.patch && git --literal-pathspecs add -A -- a.txt && git commit -m")
	require.Contains(t, script, "# Phase 2: Two\ngit --literal-pathspecs add -A -- b.txt && git commit -m")

	// Run it as a person would: the run's changes in the work tree, unstaged.
	runGit(t, dir, "merge", "-q", "--squash", in.Refs.Integration())
	runGit(t, dir, "reset", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("/.autobuild\n"), 0o644))
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	require.Equal(t, "feat: phase two\nfeat: phase one\ninitial", runGit(t, dir, "log", "--format=%s"))
	require.Equal(t, "one\ntwo\nthree", runGit(t, dir, "show", "HEAD~1:b.txt"), "phase 1's commit holds its own b.txt")
	require.Equal(t, "a.txt\nb.txt", runGit(t, dir, "show", "--format=", "--name-only", "HEAD~1"))
	require.Equal(t, "b.txt", runGit(t, dir, "show", "--format=", "--name-only", "HEAD"))
	require.Empty(t, runGit(t, dir, "status", "--porcelain"), "nothing left uncommitted")
	require.True(t, strings.HasSuffix(runGit(t, dir, "log", "-1", "--format=%B", "HEAD~1"), gitx.TrailerKey+": 1"))
}

// finish in single mode makes one commit holding the whole line, with a
// trailer per phase; in message-only mode it leaves the changes in the work
// tree, unstaged, and writes commits.sh.
func TestFinishModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	phases := []*state.Phase{
		{PhaseID: "1", DisplayID: "1", PhaseName: "One", Status: state.PhaseComplete},
		{PhaseID: "2", DisplayID: "2", PhaseName: "Two", Status: state.PhaseComplete},
	}

	in, dir := messageOnlyLine(t)
	in.strategy = single()
	sha, err := in.Finish(ctx, "Plan", phases, state.Open(dir))
	require.NoError(t, err)
	require.Equal(t, sha, runGit(t, dir, "rev-parse", "HEAD"))
	require.Equal(t, "one\ntwo\nthree, by 2", runGit(t, dir, "show", "HEAD:b.txt"))
	msg := runGit(t, dir, "log", "-1", "--format=%B")
	require.Contains(t, msg, gitx.TrailerKey+": 1\n"+gitx.TrailerKey+": 2")

	mo, dir := messageOnlyLine(t)
	scriptPath := state.Open(dir).CommitsScriptPath()
	require.NoError(t, os.MkdirAll(filepath.Dir(scriptPath), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("/.autobuild\n"), 0o644))
	sha, err = mo.Finish(ctx, "Plan", phases, state.Open(dir))
	require.NoError(t, err)
	require.Empty(t, sha, "message-only makes no commit")
	require.Equal(t, "initial", runGit(t, dir, "log", "-1", "--format=%s"))
	require.Equal(t, "?? a.txt\n?? b.txt", runGit(t, dir, "status", "--porcelain"), "the changes are left unstaged")
	require.FileExists(t, scriptPath)
}

// A conflict names both phases and the lines each changed; a phase that
// landed before this one started (its tip is this one's base) is not named.
func TestConflictReportNamesBothSides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, "# plan\n")
	lines := func(edit map[int]string) string {
		var b strings.Builder
		for i := 1; i <= 10; i++ {
			if e, ok := edit[i]; ok {
				b.WriteString(e + "\n")
				continue
			}
			b.WriteString("line\n")
		}
		return b.String()
	}
	commit := func(content, msg string) string {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content), 0o644))
		runGit(t, dir, "add", "-A")
		runGit(t, dir, "commit", "-q", "-m", msg)
		return runGit(t, dir, "rev-parse", "HEAD")
	}
	early := commit(lines(nil), "early phase")
	runGit(t, dir, "switch", "-q", "-c", "a")
	shaA := commit(lines(map[int]string{3: "A3", 4: "A4"}), "2A")
	runGit(t, dir, "switch", "-q", "-c", "b", early)
	shaB := commit(lines(map[int]string{4: "B4", 5: "B5"}), "2B")

	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	run := &state.Run{RunID: "r1"}
	in := New(repo, record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{}), yourBranch{}, dir, early)
	in.tips = []string{"root", early, shaA}
	in.landed = []landedPhase{
		{displayID: "1", base: "root", sha: early, files: []string{"f.txt"}, tipIndex: 1},
		{displayID: "2A", base: early, sha: shaA, files: []string{"f.txt"}, tipIndex: 2},
	}
	rep := in.conflictReport(ctx, &plan.Phase{ID: "2b", DisplayID: "2B"}, early, shaB, []string{"f.txt"})
	require.Equal(t, failreport.FileConflict, rep.Type)
	require.False(t, rep.Retryable)
	require.Equal(t, "phase 2B and phase 2A changed overlapping lines of f.txt", rep.Message)
	require.Equal(t, "f.txt: phase 2B changed lines 4-5, phase 2A changed lines 3-4", rep.Details)
	require.NotEmpty(t, rep.SuggestedActions)
}

// Two phases that both create the same new file have no lines to name:
// the report says both created it.
func TestConflictReportNamesTwoNewFilesOfOneName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, "# plan\n")
	base := runGit(t, dir, "rev-parse", "HEAD")
	commit := func(branch, content string) string {
		runGit(t, dir, "switch", "-q", "-c", branch, base)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "calc"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "calc", "x.go"), []byte(content), 0o644))
		runGit(t, dir, "add", "-A")
		runGit(t, dir, "commit", "-q", "-m", branch)
		return runGit(t, dir, "rev-parse", "HEAD")
	}
	shaA := commit("a", "package calc\n\nconst A = 1\n")
	shaB := commit("b", "package calc\n\nconst B = 2\n")

	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	run := &state.Run{RunID: "r1"}
	in := New(repo, record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{}), yourBranch{}, dir, base)
	in.tips = []string{base, shaA}
	in.landed = []landedPhase{{displayID: "2A", base: base, sha: shaA, files: []string{"calc/x.go"}, tipIndex: 1}}
	rep := in.conflictReport(ctx, &plan.Phase{ID: "2b", DisplayID: "2B"}, base, shaB, []string{"calc/x.go"})
	require.Equal(t, failreport.FileConflict, rep.Type)
	require.Equal(t, "phase 2B and phase 2A both created calc/x.go", rep.Message)
	require.Equal(t, "calc/x.go: phase 2B created it, phase 2A created it", rep.Details)
	require.NotContains(t, rep.Details, "lines 0")
}

// A phase whose files you have uncommitted changes in does not land on your
// branch: a file_conflict naming them. Your changes are read from the status
// the outside check has just taken (renames on both sides), or read anew
// when it took none.
func TestYourUncommittedChangesStopALanding(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, "# plan\n")
	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	head := runGit(t, dir, "rev-parse", "HEAD")
	run := &state.Run{RunID: "r1", Branch: "main"}
	in := New(repo, record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{}), yourBranch{}, dir, head)
	p := &plan.Phase{ID: "1", DisplayID: "1"}

	read := checkout.State{OK: true, Status: checkout.StatusEntries("?? notes.txt\x00R  new.go\x00old.go\x00")}
	for files, want := range map[string]string{"notes.txt": "notes.txt", "old.go": "old.go", "new.go": "new.go"} {
		rep := in.followUser(ctx, p, []string{files, "other.txt"}, read)
		require.NotNil(t, rep, files)
		require.Equal(t, failreport.FileConflict, rep.Type)
		require.Equal(t, []string{want}, rep.FilesChanged)
	}
	require.Nil(t, in.followUser(ctx, p, []string{"other.txt"}, read), "no overlap: it lands")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("yours\n"), 0o644))
	rep := in.followUser(ctx, p, []string{"mine.txt"}, checkout.State{})
	require.NotNil(t, rep, "read anew without the outside check's status")
	require.Equal(t, []string{"mine.txt"}, rep.FilesChanged)
}

// autoRepo is a repository for the auto-mode landing tests, on branch main
// at its first commit.
type autoRepo struct {
	dir, base string
	repo      *gitx.Repo
}

func newAutoRepo(t *testing.T) autoRepo {
	t.Helper()
	dir := gitRepo(t, "# plan\n")
	repo, err := gitx.Open(context.Background(), dir)
	require.NoError(t, err)
	return autoRepo{dir: dir, base: runGit(t, dir, "rev-parse", "HEAD"), repo: repo}
}

// integrator is an auto-mode integrator whose line is at your HEAD.
func (a autoRepo) integrator(t *testing.T) *Integrator {
	run := &state.Run{RunID: "r1", Branch: "main", BaseCommit: a.base, CommitMode: state.CommitAuto}
	return New(a.repo, record.New(state.Open(a.dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{}),
		yourBranch{}, a.dir, runGit(t, a.dir, "rev-parse", "HEAD"))
}

// worktree makes phase id's worktree at from, with file written in it.
func (a autoRepo) worktree(t *testing.T, id, from, file string) string {
	wt := filepath.Join(t.TempDir(), id)
	runGit(t, a.dir, "worktree", "add", "-q", "-b", "phase-"+id, wt, from)
	require.NoError(t, os.WriteFile(filepath.Join(wt, file), []byte(id+"\n"), 0o644))
	return wt
}

// A phase that started from a landing taken back since (undoLanding: your
// branch refused its fast-forward) lands its own change only: the
// taken-back phase's work does not come back with it through the phase's
// history.
func TestLandingAfterTheLineWasTakenBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newAutoRepo(t)
	dir, base, in := r.dir, r.base, r.integrator(t)
	worktree := func(id, from, file string) string { return r.worktree(t, id, from, file) }

	a := &plan.Phase{ID: "a", DisplayID: "A", Name: "A"}
	_, rep, err := in.Land(ctx, a, Handover{Workspace: worktree("a", base, "a.txt"), Base: base}, checkout.State{})
	require.NoError(t, err)
	require.Nil(t, rep)
	tipA := in.Tip()
	require.Equal(t, tipA, runGit(t, dir, "rev-parse", "HEAD"), "A is on your branch")
	require.Equal(t, runGit(t, dir, "rev-parse", "phase-a"), tipA, "A started from the tip: its own commit lands")

	wtB := worktree("b", tipA, "b.txt") // B started from A's landing
	// A's fast-forward is refused after all: your branch stays where it was.
	runGit(t, dir, "reset", "-q", "--hard", base)
	in.mu.Lock()
	in.branchAt = base
	rep = in.undoLanding(a, base, os.ErrClosed)
	in.mu.Unlock()
	require.Equal(t, failreport.BranchChanged, rep.Type)
	require.Equal(t, base, in.Tip())

	_, rep, err = in.Land(ctx, &plan.Phase{ID: "b", DisplayID: "B", Name: "B"}, Handover{Workspace: wtB, Base: tipA}, checkout.State{})
	require.NoError(t, err)
	require.Nil(t, rep)
	require.Equal(t, base, runGit(t, dir, "rev-parse", "HEAD^"))
	require.NotEqual(t, runGit(t, dir, "rev-parse", "phase-b"), runGit(t, dir, "rev-parse", "HEAD"), "B is picked onto the line")
	require.Equal(t, "b.txt", runGit(t, dir, "show", "--format=", "--name-only", "HEAD"))
	require.NoFileExists(t, filepath.Join(dir, "a.txt"), "A's work stays off the line")
}

// Something that commits in a phase's worktree after the agent (a gate
// running git commit) does not ride along: only the phase's own commit is
// picked onto the line, as cherry-pick would.
func TestLandingLeavesOtherCommitsInTheWorktreeBehind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newAutoRepo(t)
	dir, base, in := r.dir, r.base, r.integrator(t)
	wt := r.worktree(t, "1", base, "gate.out")
	runGit(t, wt, "add", "gate.out")
	runGit(t, wt, "commit", "-q", "-m", "a gate's commit")
	require.NoError(t, os.WriteFile(filepath.Join(wt, "one.txt"), []byte("1\n"), 0o644))

	_, rep, err := in.Land(ctx, &plan.Phase{ID: "1", DisplayID: "1", Name: "One"}, Handover{Workspace: wt, Base: base}, checkout.State{})
	require.NoError(t, err)
	require.Nil(t, rep)
	require.Equal(t, base, runGit(t, dir, "rev-parse", "HEAD^"), "one commit on your branch")
	require.Equal(t, "one.txt", runGit(t, dir, "show", "--format=", "--name-only", "HEAD"))
	require.NoFileExists(t, filepath.Join(dir, "gate.out"))
}

// Phases that finish together move your checkout once: a landing that
// another waits behind leaves the fast-forward to the last one, and its
// commit is already the line's. Your commits made in between are not
// followed: they halt the landing that finds them.
func TestLandingsInAQueueMoveYourBranchOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newAutoRepo(t)
	dir, base := r.dir, r.base
	newIn := func() *Integrator { return r.integrator(t) }
	worktree := func(id, from string) string { return r.worktree(t, id, from, id+".txt") }
	in := newIn()
	wtA, wtB := worktree("a", base), worktree("b", base)

	in.waiting.Add(1) // a landing waits behind A's
	commitA, rep, err := in.Land(ctx, &plan.Phase{ID: "a", DisplayID: "A"}, Handover{Workspace: wtA, Base: base}, checkout.State{})
	require.NoError(t, err)
	require.Nil(t, rep)
	require.Equal(t, base, runGit(t, dir, "rev-parse", "HEAD"), "your branch waits for the queue")
	require.Equal(t, in.Tip(), commitA.SHA, "A's commit is the line's")
	in.waiting.Add(-1)

	commitB, rep, err := in.Land(ctx, &plan.Phase{ID: "b", DisplayID: "B"}, Handover{Workspace: wtB, Base: base}, checkout.State{})
	require.NoError(t, err)
	require.Nil(t, rep)
	require.Equal(t, commitB.SHA, runGit(t, dir, "rev-parse", "HEAD"), "the last landing moves your branch")
	require.Equal(t, commitA.SHA, runGit(t, dir, "rev-parse", "HEAD^"))
	require.FileExists(t, filepath.Join(dir, "a.txt"))
	require.FileExists(t, filepath.Join(dir, "b.txt"))

	// Your commit while A's fast-forward was left to the queue.
	in = newIn()
	head := runGit(t, dir, "rev-parse", "HEAD")
	wtC, wtD := worktree("c", head), worktree("d", head)
	in.waiting.Add(1)
	_, rep, err = in.Land(ctx, &plan.Phase{ID: "c", DisplayID: "C"}, Handover{Workspace: wtC, Base: head}, checkout.State{})
	require.NoError(t, err)
	require.Nil(t, rep)
	in.waiting.Add(-1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("mine\n"), 0o644))
	runGit(t, dir, "add", "mine.txt")
	runGit(t, dir, "commit", "-q", "-m", "mine")
	_, rep, err = in.Land(ctx, &plan.Phase{ID: "d", DisplayID: "D"}, Handover{Workspace: wtD, Base: head}, checkout.State{})
	require.NoError(t, err)
	require.NotNil(t, rep)
	require.Equal(t, failreport.BranchChanged, rep.Type)
	require.Contains(t, rep.Message, "while phases were landing on it")
}

// Attack 4, the race (issue 25): an agent's commit on your branch that
// another phase's landing finds first (its own attempt has not ended yet)
// is not followed as one of yours: the landing halts, your branch goes back
// and the commit is kept aside. A commit of yours made in your checkout is
// still followed.
func TestAttackAgentCommitFoundByAnotherLandingIsNotFollowed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newAutoRepo(t)
	in := r.integrator(t)
	p := &plan.Phase{ID: "2", DisplayID: "2", Name: "Two"}

	// Yours, in your checkout: followed.
	runGit(t, r.dir, "commit", "-q", "--allow-empty", "-m", "mine")
	in.mu.Lock()
	require.Nil(t, in.followUser(ctx, p, nil, checkout.State{}))
	in.mu.Unlock()
	mine := runGit(t, r.dir, "rev-parse", "HEAD")

	// An agent's, from a worktree of the run (under .autobuild/worktrees).
	wt := filepath.Join(r.dir, ".autobuild", "worktrees", "phase-1")
	runGit(t, r.dir, "worktree", "add", "-q", "-b", "autobuild/r1/phase-1", wt, "HEAD")
	runGit(t, wt, "checkout", "-q", "--ignore-other-worktrees", "main")
	runGit(t, wt, "commit", "-q", "--allow-empty", "-m", "sneaky")
	sneaky := runGit(t, wt, "rev-parse", "HEAD")
	in.mu.Lock()
	rep := in.followUser(ctx, p, nil, checkout.State{})
	in.mu.Unlock()
	require.NotNil(t, rep)
	require.Contains(t, rep.Message, "from the run's worktree .autobuild/worktrees/phase-1")
	require.Contains(t, rep.Message, `"sneaky"`)
	require.Equal(t, mine, runGit(t, r.dir, "rev-parse", "main"), "your branch is back where you left it")
	require.Equal(t, sneaky, runGit(t, r.dir, "rev-parse", "autobuild-kept/r1/phase-2-on-main"))
}

// A handover with neither a commit nor a worktree is refused: the
// repository's root, where a worktree of "" would be read, is your
// checkout, whose files are never the phase's work.
func TestLandingRefusesAHandoverWithoutWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newAutoRepo(t)
	dir, base, in := r.dir, r.base, r.integrator(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "yours.txt"), []byte("yours\n"), 0o644))
	_, _, err := in.Land(ctx, &plan.Phase{ID: "1", DisplayID: "1", Name: "One"}, Handover{Base: base}, checkout.State{})
	require.ErrorContains(t, err, "neither a commit nor a worktree")
	require.Equal(t, base, runGit(t, dir, "rev-parse", "HEAD"), "your branch did not move")
	require.Contains(t, runGit(t, dir, "status", "--porcelain"), "?? yours.txt")
}
