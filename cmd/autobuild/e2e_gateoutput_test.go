package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// In a repository whose root is a main package, `go build ./...` writes
// the program's binary into the tree. Neither it nor anything else a gate
// creates or changes may land in a phase's commit: only the agent's work.
func TestGateOutputNeverCommitted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		gates string
	}{
		// The detected Go gates (build, vet, gofmt, test) write nothing.
		{name: "detected"},
		// Declared gates that write: a build that leaves the binary, a
		// "lint" that rewrites a tracked file, a test that leaves a report.
		{name: "declared", gates: "\n## Quality Gates\n\n- build: `go build ./...`\n" +
			"- lint: `echo touched >> README.md`\n- test: `go test ./... > report.txt`\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			repo := newRepo(t, `# App

| Phase | Name | Depends On |
|---|---|---|
| 1 | Notes | - |
| 2 | More notes | 1 |

## Phase 1: Notes
- [ ] notes

## Phase 2: More notes
- [ ] more
`+tt.gates)
			writeFile(t, filepath.Join(repo, "go.mod"), "module example.com/app\n\ngo 1.22\n")
			writeFile(t, filepath.Join(repo, "main.go"), "package main\n\nfunc main() {}\n")
			git(t, repo, "add", "-A")
			git(t, repo, "commit", "-q", "-m", "a main package at the root")
			base := git(t, repo, "rev-parse", "HEAD")

			res := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent",
				agentScript(t, `echo "notes of $AUTOBUILD_PHASE_ID" > "notes-$AUTOBUILD_PHASE_ID.txt"`))
			require.Equal(t, 0, res.code, res.String())

			files := git(t, repo, "diff", "--name-only", base, "HEAD")
			require.Equal(t, "notes-1.txt\nnotes-2.txt", files, "only the agents' files are committed")
			for _, id := range []string{"1", "2"} {
				show := git(t, repo, "log", "-1", "--name-only", "--format=", "--grep=Autobuild-Phase: "+id)
				require.Equal(t, "notes-"+id+".txt", show)
			}
			require.Empty(t, git(t, repo, "status", "--porcelain"))
			if tt.gates != "" {
				require.Equal(t, "# test repo", git(t, repo, "show", "HEAD:README.md"))
				require.Contains(t, attemptLog(t, repo, "1"), "# autobuild: the gates created or changed README.md, app, report.txt; put back as the agent left them")
			}
		})
	}
}

// attemptLog is the text of the last attempt log of phase id.
func attemptLog(t *testing.T, repo, id string) string {
	t.Helper()
	p := loadPhase(t, repo, id)
	require.NotEmpty(t, p.Attempts)
	b, err := os.ReadFile(filepath.Join(repo, p.Attempts[len(p.Attempts)-1].LogPath))
	require.NoError(t, err)
	return string(b)
}
