package runstart

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// recordedPlanPath is the plan's path as run.json keeps it: relative to the
// repository root, so the resume command built from it (`cd ROOT &&
// autobuild PLAN --resume`, printed by status) works whatever directory the
// run was started in; absolute for a plan outside the repository. dir is
// where autobuild was started, which a relative path is relative to.
func recordedPlanPath(root, dir, path string) string {
	abs := PlanFile(dir, path)
	// git reports the root with symbolic links resolved; do the same.
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}

// PlanFile is the plan's absolute path as the kernel opens it: dir (where
// autobuild was started, "" for the current directory) may be reached
// through a symbolic link (a shell's PWD), and "../plan.md" is then
// relative to where the link points, not to the link's parent.
func PlanFile(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, path)
}

// samePlanFile refuses to resume the run with another plan file: phases are
// matched by id, so another plan's phases 1 and 2A would count as done
// because the run's were. An edited plan is the same file (the hash check
// after this says so); a moved or renamed one must be moved back.
func samePlanFile(root string, cfg *Options, run *state.Run, store *state.Store) error {
	if run.PlanPath == "" {
		return nil // an older autobuild's run, which did not record it
	}
	now := recordedPlanPath(root, cfg.Dir, cfg.Plan.Path)
	if state.PlanFile(root, now) == state.PlanFile(root, run.PlanPath) {
		return nil
	}
	if run.Status == state.RunComplete {
		return exitcode.Refusedf("the run in %s, of the plan %s, is complete; %s is another plan: pass --fresh to start a run of it (the earlier run's state goes; its commits stay)",
			store.Dir(), run.PlanPath, now)
	}
	return exitcode.Refusedf("the run in %s is of the plan %s, not %s: to go on with it, run `cd %s && autobuild %s --resume` (move the plan back first if you moved or renamed it); to start a run of %s instead, pass --fresh (the earlier run's state goes; its commits stay)",
		store.Dir(), run.PlanPath, now, shell.Quote(root), shell.Quote(run.PlanPath), now)
}
