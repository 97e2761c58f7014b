package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/line"
)

// mistypedCommand catches a subcommand typed wrong ("autobuild stauts"),
// which would otherwise be read as a plan path and fail as a missing file.
// A file of that name always wins: it is a plan.
func mistypedCommand(root *cobra.Command, arg string) error {
	if strings.TrimSpace(arg) == "" {
		// autobuild "$PLAN" with PLAN unset: no command is "close" to it.
		return usageErr("the plan's path is empty (an unset variable?): autobuild PLAN.md (see autobuild --help)")
	}
	if _, err := os.Stat(arg); err == nil {
		return nil
	}
	if strings.ContainsAny(arg, "/.") {
		return nil // a path, not a command
	}
	if suggestions := root.SuggestionsFor(arg); len(suggestions) > 0 {
		return usageErr("unknown command %q: did you mean %s? (a plan is a markdown file: autobuild PLAN.md; see autobuild --help)",
			arg, strings.Join(suggestions, " or "))
	}
	return usageErr("unknown command %q, and there is no plan file of that name; commands: %s (see autobuild --help)", arg, commandList(root))
}

// newVersion is `autobuild version`, the same as --version.
func newVersion(s Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print autobuild's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(s.Out, "autobuild version "+version())
			return nil
		},
	}
}

// completePlanFile completes a plan argument: markdown files and
// directories, and at the top level the subcommands too (cobra adds them).
func completePlanFile(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return []string{"md", "markdown"}, cobra.ShellCompDirectiveFilterFileExt
}

// registerCompletions completes the values of --commit, --schedule and --agent, and the
// directory arguments of status and watch.
func registerCompletions(root *cobra.Command) {
	var modes []string
	for _, s := range line.Strategies() {
		modes = append(modes, string(s.Mode())+"\t"+s.Help())
	}
	_ = root.RegisterFlagCompletionFunc("commit", cobra.FixedCompletions(modes, cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("schedule", cobra.FixedCompletions(
		[]string{"batches\tthe plan's layers one after another", "eager\ta phase starts once its dependencies have landed"},
		cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("review", cobra.FixedCompletions(
		[]string{"none\tphases land once their gates pass", "phase\teach phase waits for a person's approval", "batch\tthe phases of a batch wait and are decided together"},
		cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("notify", cobra.FixedCompletions(
		[]string{"webhook=\tPOST each notification's JSON to a URL", "command=\ta command that gets the JSON on stdin",
			"desktop\tnotify-send or osascript", "attempts\tevery failed attempt too", "terminal=off\tno bell or OSC 9 from the UI",
			"off\tno notifications"},
		cobra.ShellCompDirectiveNoFileComp|cobra.ShellCompDirectiveNoSpace))
	_ = root.RegisterFlagCompletionFunc("agent", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		// Any command line is an agent too: files stay offered.
		return append(agent.Presets(), agent.SimName+"\tthe built-in simulated agent"), cobra.ShellCompDirectiveDefault
	})
	for _, c := range root.Commands() {
		switch c.Name() {
		case "validate":
			c.ValidArgsFunction = completePlanFile
		case "status", "watch":
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return nil, cobra.ShellCompDirectiveFilterDirs
			}
		}
	}
}
