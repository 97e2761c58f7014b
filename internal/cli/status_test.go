package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The resume command status prints works from wherever it is pasted: it
// goes to the run's directory, and needs no --agent (a resume runs the
// agents run.json records).
func TestResumeCommandFromRunJSON(t *testing.T) {
	t.Parallel()
	run := &state.Run{PlanPath: "docs/my plan.md", Agents: []string{"my-agent.sh"}}
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.Equal(t, "autobuild 'docs/my plan.md' --resume", resumeCommand(launcher{words: "autobuild"}, wd, run))
	require.Equal(t, "cd /elsewhere/repo && autobuild 'docs/my plan.md' --resume", resumeCommand(launcher{words: "autobuild"}, "/elsewhere/repo", run))
	require.Equal(t, "cd testdata && autobuild 'docs/my plan.md' --resume", resumeCommand(launcher{words: "autobuild"}, filepath.Join(wd, "testdata"), run))
	// A run.json too old to record its plan: the placeholder, as watch
	// shows it, not an empty word the command line refuses.
	require.Equal(t, "autobuild PLAN.md --resume", resumeCommand(launcher{words: "autobuild"}, wd, &state.Run{}))
}
