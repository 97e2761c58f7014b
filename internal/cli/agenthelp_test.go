package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

// Review 2: --agent's help named every preset but pi (issue 32 added it).
func TestAgentHelpNamesEveryPreset(t *testing.T) {
	t.Parallel()
	cmd := &cobra.Command{}
	(&runOptions{}).register(cmd)
	usage := cmd.Flags().Lookup("agent").Usage
	names, _, ok := strings.Cut(strings.TrimPrefix(usage, "agent: "), " (with")
	require.True(t, ok, usage)
	require.ElementsMatch(t, preset.Names(), strings.Split(names, ", "))
}
