package engine

import (
	"path/filepath"
	"strings"
)

// recordedPlanPath is the plan's path as run.json keeps it: relative to the
// repository root, so the resume command built from it (`cd ROOT &&
// autobuild PLAN --resume`, printed by status) works whatever directory the
// run was started in; absolute for a plan outside the repository. dir is
// where autobuild was started, which a relative path is relative to.
func recordedPlanPath(root, dir, path string) string {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, abs)
	}
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
