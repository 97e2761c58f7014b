package line

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// onePhase is a plan of one phase with a test gate.
const onePhase = "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n\n## Quality Gates\n\n- test: `true`\n"

// gitRepo makes a repository with one commit holding plan.md and returns
// its directory.
func gitRepo(t *testing.T, planText string) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "t"}, {"config", "user.email", "t@example.com"}} {
		runGit(t, dir, args...)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plan.md"), []byte(planText), 0o644))
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

const diamondPlan = `# Diamond

| Phase | Name | Depends On |
|---|---|---|
| 0 | Bootstrap | - |
| 1 | Core | 0 |
| 2A | Api | 1 |
| 2B | Ui | 1 |
| 2C | Docs | 1 |
| 3 | Integration | 2A, 2B, 2C |

## Phase 0: Bootstrap
## Phase 1: Core
## Phase 2A: Api
## Phase 2B: Ui
## Phase 2C: Docs
## Phase 3: Integration
`
