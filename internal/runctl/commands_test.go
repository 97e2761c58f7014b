package runctl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A run this process drives offers the command lines cli made of what the
// user typed; without them, the plain command.
func TestCommandsOfADrivenRun(t *testing.T) {
	t.Parallel()
	c := Commands{Resume: "autobuild plan.md --agent sim --resume", Fresh: "autobuild plan.md --agent sim --fresh --commit=auto"}
	require.False(t, c.Followed())
	require.Equal(t, "autobuild plan.md --agent sim --resume", c.ResumeFor(""))
	require.Equal(t, "autobuild plan.md --agent sim --fresh --commit=auto", c.FreshFor("", "single"),
		"the command line is the user's own: nothing is added")

	var plain Commands
	require.Equal(t, "autobuild PLAN.md --resume", plain.ResumeFor(""))
	require.Equal(t, "autobuild PLAN.md --fresh", plain.FreshFor("", ""))
	require.Equal(t, "autobuild PLAN.md --fresh --commit=auto", plain.FreshFor("", "auto"),
		"a fresh run names the commit mode it would otherwise not know")
}

// A run followed from its files (watch) gets commands that name its plan
// and commit mode as run.json records them, run where the run is.
func TestCommandsOfAFollowedRun(t *testing.T) {
	t.Parallel()
	var got [][]string
	c := Commands{Launch: func(args ...string) string {
		got = append(got, args)
		return "cd '/src/PLAN.md notes' && autobuild " + strings.Join(args, " ")
	}}
	require.True(t, c.Followed())
	require.Equal(t, "cd '/src/PLAN.md notes' && autobuild PLAN.md --resume", c.ResumeFor(""),
		"the placeholder until the plan is known")
	require.Equal(t, "cd '/src/PLAN.md notes' && autobuild 'docs/my plan.md' --resume", c.ResumeFor("docs/my plan.md"),
		"the plan quoted for a shell; the directory is left as it is")
	require.Equal(t, "cd '/src/PLAN.md notes' && autobuild 'docs/my plan.md' --fresh --commit=single",
		c.FreshFor("docs/my plan.md", "single"))
	require.Equal(t, "cd '/src/PLAN.md notes' && autobuild plan.md --fresh", c.FreshFor("plan.md", ""))
	require.Equal(t, []string{"'docs/my plan.md'", "--fresh", "--commit=single"}, got[2], "each word an argument of its own")
}
