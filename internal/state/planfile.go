package state

import "path/filepath"

// PlanFile is the plan's path to open, from a path as run.json records it
// (Run.PlanPath: relative to the repository root at root, with slashes, or
// absolute for a plan outside the repository).
func PlanFile(root, recorded string) string {
	if filepath.IsAbs(recorded) {
		return filepath.Clean(recorded)
	}
	return filepath.Join(root, filepath.FromSlash(recorded))
}
