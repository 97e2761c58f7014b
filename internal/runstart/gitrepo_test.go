package runstart

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/plan/plantest"
)

const (
	onePhase    = plantest.OnePhase
	diamondPlan = plantest.Diamond
)

// gitRepo makes a repository with one commit holding plan.md and returns
// its directory.
func gitRepo(t *testing.T, planText string) string {
	t.Helper()
	return gittest.New(t, gittest.File("plan.md", planText), gittest.Message("initial"))
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gittest.Git(t, dir, args...)
}
