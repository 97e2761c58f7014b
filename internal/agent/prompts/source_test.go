package prompts

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/plan"
)

// A phase whose body is a linked file is not told it reads "its section".
func TestPromptNamesTheLinkedFile(t *testing.T) {
	t.Parallel()
	p := &plan.Phase{ID: "2", DisplayID: "2", Name: "Persistence", Line: 8, BodyFile: "phases/phase-2-storage.md",
		Body: "# Phase 2: Persistence\n\n- [ ] Postgres repository\n"}
	prompt := Build(Input{Phase: p, Attempt: 1, MaxAttempts: 2})
	require.Contains(t, prompt, "## Your phase\n\nThe phase's description, from `phases/phase-2-storage.md` (the file its row in the plan links), verbatim:\n\n")

	p.SectionLine = 20
	require.Contains(t, Build(Input{Phase: p}), "The phase's section of the plan, then the file its row links (`phases/phase-2-storage.md`), verbatim:")

	p.BodyFile = ""
	require.Contains(t, Build(Input{Phase: p}), "## Your phase\n\nThe phase's section of the plan, verbatim:\n\n")
}
