package review

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const patch = `diff --git a/new.go b/new.go
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package x
+var A = 1
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 2222222..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old name.md b/new name.md
similarity index 90%
rename from old name.md
rename to new name.md
index 3333333..4444444 100644
--- a/old name.md
+++ b/new name.md
@@ -1,2 +1,2 @@
 # Title
-old
+new
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..5555555
Binary files /dev/null and b/logo.png differ
`

func TestParseDiff(t *testing.T) {
	t.Parallel()
	files := ParseDiff(patch)
	require.Len(t, files, 4)
	require.Equal(t, File{Path: "new.go", Status: "added", Added: 2, Hunks: []Hunk{{Header: "@@ -0,0 +1,2 @@", Lines: []string{"+package x", "+var A = 1"}}}}, files[0])
	require.Equal(t, "deleted", files[1].Status)
	require.Equal(t, 1, files[1].Removed)
	require.Equal(t, "gone.txt", files[1].Path, "a deleted file keeps its name")
	require.Equal(t, "renamed", files[2].Status)
	require.Equal(t, "new name.md", files[2].Path)
	require.Equal(t, []string{" # Title", "-old", "+new"}, files[2].Hunks[0].Lines)
	require.True(t, files[3].Binary)
	require.Equal(t, "A", files[3].StatusLetter())
	require.Empty(t, ParseDiff(""))
}

// A decision names the hold it is about; one on a phase that does not
// await review, or an unknown one, is refused.
func TestDecide(t *testing.T) {
	t.Parallel()
	store := state.Open(t.TempDir())
	ps := &state.Phase{PhaseID: "2a", DisplayID: "2A", Status: state.PhaseAwaitingReview, Review: &state.ReviewHold{Tree: "abc"}}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	require.NoError(t, Decide(store, ps, state.DecisionReject, "  keep the flag  ", now))
	d, err := store.LoadReviewDecision("2a")
	require.NoError(t, err)
	require.Equal(t, state.ReviewDecision{PhaseID: "2a", Decision: "reject", Note: "keep the flag", Tree: "abc", Decided: now}, *d)
	require.True(t, Pending(store, ps))
	require.Error(t, Decide(store, ps, "maybe", "", now))
	require.Error(t, Decide(store, &state.Phase{PhaseID: "3", Status: state.PhaseRunning}, state.DecisionApprove, "", now))

	// A later hold of the same phase is another change.
	later := *ps
	later.Review = &state.ReviewHold{Tree: "def"}
	require.False(t, Pending(store, &later))
}

func TestAwaitingAndFind(t *testing.T) {
	t.Parallel()
	phases := []*state.Phase{
		{PhaseID: "1", Status: state.PhaseComplete},
		{PhaseID: "2a", DisplayID: "2-A", Status: state.PhaseAwaitingReview, Review: &state.ReviewHold{}},
		{PhaseID: "2b", Status: state.PhaseAwaitingReview}, // no hold: not reviewable
	}
	require.Equal(t, []*state.Phase{phases[1]}, Awaiting(phases))
	norm := func(s string) phaseid.ID { return phaseid.ID(s) }
	require.Equal(t, phases[1], Find(phases, "2-A", norm))
	require.Equal(t, phases[1], Find(phases, "2a", norm))
	require.Nil(t, Find(phases, "9", norm))
}

// Load reads the kept diff and the log's last lines; WriteText shows the
// facts, the files, then the hunks, and how to decide.
func TestLoadAndWriteText(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".autobuild", "review"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".autobuild", "logs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".autobuild", "review", "1.diff"), []byte(patch), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".autobuild", "logs", "a.log"), []byte("one\n\x1b[31mred\x1b[0m\n→ Write new.go\n"), 0o644))
	since := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	ps := &state.Phase{PhaseID: "1", DisplayID: "1", PhaseName: "Greet", Status: state.PhaseAwaitingReview, Attempt: 1, MaxAttempts: 2, Agent: "sim",
		QualityGates: map[string]state.GateResult{"test": {Command: "go test ./...", Status: state.GatePassed}},
		Attempts:     []state.Attempt{{Number: 1, LogPath: ".autobuild/logs/a.log", Usage: &state.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: 0.02}}},
		Review:       &state.ReviewHold{Since: since, Attempt: 1, DiffPath: ".autobuild/review/1.diff", Message: "feat: greet\n\nbody"}}
	r, err := Load(context.Background(), root, ps)
	require.NoError(t, err)
	require.Equal(t, []string{"one", "red", "→ Write new.go"}, r.LogTail, "the log's lines are cleaned")
	var b bytes.Buffer
	r.WriteText(&b, since.Add(90*time.Second))
	out := b.String()
	for _, want := range []string{"Phase 1: Greet", "Attempt 1/2, agent sim, awaiting review for 1m30s", "Gates: test passed (go test ./...)",
		"Agent's summary: feat: greet", "Usage: 1.2k in, 300 out, $0.02", "Change: 4 files, +3 -2",
		"  A new.go  +2 -0", "  D gone.txt  +0 -1", "=== new name.md (renamed)", "  (binary)",
		"Decide: autobuild review 1 --approve, or autobuild review 1 --reject --note TEXT"} {
		require.Contains(t, out, want)
	}
	require.Less(t, bytes.Index(b.Bytes(), []byte("Files:")), bytes.Index(b.Bytes(), []byte("@@")), "files, then hunks")

	_, err = Load(context.Background(), root, &state.Phase{PhaseID: "2", Status: state.PhaseRunning})
	require.Error(t, err)
}
