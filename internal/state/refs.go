package state

import (
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// Refs names the git branches of one run: with the worktree and file paths
// of layout.go, everything autobuild creates is named here. The names carry
// the run's id (autobuild/<run-id>/integration, autobuild/<run-id>/phase-2a),
// a name no person picks, so a run deletes only branches it created: a
// branch of yours named autobuild/… is never touched.
type Refs struct {
	// id is run.json's run_id; empty for a run started by an autobuild
	// that had no run ids, whose fixed names are kept so it can resume.
	id string
}

// RefsOf returns the branch names of run.
func RefsOf(run Run) Refs { return Refs{id: run.RunID} }

// Prefix is what every branch of the run starts with; "" for a run without
// an id, whose branches are only ever named one by one.
func (r Refs) Prefix() string {
	if r.id == "" {
		return ""
	}
	return "autobuild/" + r.id + "/"
}

// Integration is the run's line.
func (r Refs) Integration() string {
	if r.id == "" {
		return "autobuild/integration"
	}
	return r.Prefix() + "integration"
}

// Phase is the branch of the phase's worktree.
func (r Refs) Phase(id phaseid.ID) string {
	if r.id == "" {
		return "autobuild/phase-" + string(FileIDOf(id))
	}
	return r.Prefix() + "phase-" + string(FileIDOf(id))
}

// KeptAutostash is the start of the name of the branch that keeps an
// agent's autostash autobuild could not put back (gitx adds the stash's
// hash): outside the run's prefix, so no clean-up of the run deletes it.
func (r Refs) KeptAutostash(id phaseid.ID) string {
	return "autobuild-kept/" + strings.TrimPrefix(r.Phase(id), "autobuild/") + "-autostash"
}

// PhasePrefix is what the run's phase branches start with ("" for a run
// without an id).
func (r Refs) PhasePrefix() string {
	if r.id == "" {
		return ""
	}
	return r.Prefix() + "phase-"
}
