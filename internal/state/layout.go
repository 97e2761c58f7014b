package state

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// The layout of .autobuild/ (docs/state.md) lives here: every path under it
// is built by a Store method, and the per-attempt file names by
// AttemptFileName, which ParseAttemptFileName reads back (watch follows the
// logs by their names).

// AttemptFileName is "phase-<file id>.attempt-<n>.<ext>": the name of an
// attempt's log ("log"), diff ("diff"), raw agent stream ("stream") or
// prompt ("md").
func AttemptFileName(id phaseid.ID, n int, ext string) string {
	return "phase-" + string(FileIDOf(id)) + ".attempt-" + strconv.Itoa(n) + "." + ext
}

// ParseAttemptFileName reads a name made by AttemptFileName: the phase's file
// id (not its plan id: FileID is one-way), the attempt number and the
// extension.
func ParseAttemptFileName(name string) (fileID FileID, n int, ext string, ok bool) {
	rest, found := strings.CutPrefix(name, "phase-")
	if !found {
		return "", 0, "", false
	}
	dot := strings.LastIndexByte(rest, '.')
	if dot < 0 {
		return "", 0, "", false
	}
	rest, ext = rest[:dot], rest[dot+1:]
	at := strings.LastIndex(rest, ".attempt-")
	if at <= 0 || ext == "" {
		return "", 0, "", false
	}
	num := rest[at+len(".attempt-"):]
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || strconv.Itoa(n) != num {
		return "", 0, "", false
	}
	return FileID(rest[:at]), n, ext, true
}

// AttemptStreamPath returns logs/phase-<id>.attempt-<n>.stream: a preset
// agent CLI's raw stdout.
func (s *Store) AttemptStreamPath(id phaseid.ID, n int) string {
	return filepath.Join(s.LogsDir(), AttemptFileName(id, n, "stream"))
}

// PromptsDir returns the directory holding the prompts the agents got.
func (s *Store) PromptsDir() string { return filepath.Join(s.Dir(), "prompts") }

// PromptPath returns prompts/phase-<id>.attempt-<n>.md.
func (s *Store) PromptPath(id phaseid.ID, n int) string {
	return filepath.Join(s.PromptsDir(), AttemptFileName(id, n, "md"))
}

// PatchesDir returns the directory of the patches commits.sh stages.
func (s *Store) PatchesDir() string { return filepath.Join(s.Dir(), "patches") }

// PatchPath returns patches/<nn>-phase-<id>.patch, the n-th (1-based) patch
// commits.sh stages, of phase id ("unknown" when the commit names none).
func (s *Store) PatchPath(n int, id phaseid.ID) string {
	if id == "" {
		id = "unknown"
	}
	return filepath.Join(s.PatchesDir(), fmt.Sprintf("%02d-phase-%s.patch", n, FileIDOf(id)))
}

// PhaseWorktreePath returns worktrees/phase-<id>, the phase's worktree.
func (s *Store) PhaseWorktreePath(id phaseid.ID) string {
	return filepath.Join(s.WorktreesDir(), "phase-"+string(FileIDOf(id)))
}

// SpareWorktreePath returns worktrees/spare-<n>: a landed phase's worktree,
// parked for the next phase to take over.
func (s *Store) SpareWorktreePath(n int) string {
	return filepath.Join(s.WorktreesDir(), "spare-"+strconv.Itoa(n))
}

// IntegrationWorktreePath returns worktrees/integration, where an older
// autobuild kept the run's line checked out; the line is a branch only
// now, and a resume removes the worktree it finds there.
func (s *Store) IntegrationWorktreePath() string {
	return filepath.Join(s.WorktreesDir(), IntegrationWorktreeName)
}

// IntegrationWorktreeName is the integration worktree's directory name.
const IntegrationWorktreeName = "integration"

// VerifyWorktreePath returns worktrees/verify: the detached worktree where
// a combination of landings is checked out and verified (docs/running.md,
// "The line stays green").
func (s *Store) VerifyWorktreePath() string { return filepath.Join(s.WorktreesDir(), "verify") }

// VerifyLogPath returns logs/verify.log, the output of the gates run on
// combinations and on the run's base.
func (s *Store) VerifyLogPath() string { return filepath.Join(s.LogsDir(), "verify.log") }
