// Package cli wires autobuild's commands (cobra) to the packages that do the
// work. cmd/autobuild only calls Main.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
)

// Streams are the process's standard streams, injectable for tests.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
	// self is how printed commands start autobuild, found before -C
	// changes the working directory (newRoot sets it; zero: found when asked).
	self launcher
}

// launcher is how the commands printed for the user start autobuild.
func (s Streams) launcher() launcher {
	if s.self.words != "" {
		return s.self
	}
	return programName()
}

// Main runs autobuild with the given arguments (without the program name)
// and returns the process exit code.
func Main(args []string, s Streams) int {
	root := newRoot(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var exit *exitError
	if errors.As(err, &exit) {
		return exit.code
	}
	fmt.Fprintln(s.Err, "autobuild: "+err.Error())
	var ee *exitcode.Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	// Anything cobra itself rejects (unknown flag, bad value) is bad usage.
	return exitcode.Usage
}

// exitError ends a command with an exit code after it has printed what it
// had to say.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func newRoot(s Streams) *cobra.Command {
	// Before -C moves the working directory: a `go run` command is
	// relative to where it was typed.
	s.self = s.launcher()
	opts := &runOptions{self: s.self}
	root := &cobra.Command{
		Use:   "autobuild PLAN.md [flags]",
		Short: "Run a multi-phase implementation plan with coding agents, and supervise it live",
		Long: `autobuild reads a plan written in markdown (phases in a table with a "Depends On"
column, one section per phase), checks it, and runs its phases in dependency
order, in parallel where it can, each in its own git worktree with a coding
agent. It verifies every phase with the plan's quality gates, retries a failure
once with the failure as context, and halts with a summary of what completed,
what failed and why, and how to resume.`,
		Example: `  autobuild demo                                   # see it work, with a simulated agent
  autobuild validate docs/plan.md                  # check a plan, print its batches
  autobuild docs/plan.md --commit=auto --agent claude
  autobuild docs/plan.md --commit=auto --agent 'claude --model opus' --agent codex
  autobuild docs/plan.md --resume                  # continue after fixing a failure
  autobuild docs/plan.md --fresh --commit=single   # start over
  autobuild watch                                  # follow a run started elsewhere
  autobuild status --json`,
		Args:          cobra.ArbitraryArgs,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				if cmd.Flags().NFlag() == 0 {
					return cmd.Help()
				}
				recorded, err := recordedPlan(s, opts.resume)
				if err != nil {
					return err
				}
				args = []string{recorded}
			}
			if err := mistypedCommand(cmd, args[0]); err != nil {
				return err
			}
			if len(args) > 1 {
				return usageErr("one plan at a time: got %d arguments (%v)", len(args), args)
			}
			opts.planPath = args[0]
			opts.flags = cmd.Flags()
			err := runPlan(cmd.Context(), s, opts)
			var exit *exitError
			if hint := s.self.installHint(); hint != "" && errors.As(err, &exit) && exit.code == exitcode.Halted {
				fmt.Fprintln(s.Err, hint) // the resume command printed builds autobuild again
			}
			return err
		},
	}
	var chdir string
	root.PersistentFlags().StringVarP(&chdir, "chdir", "C", "", "run as if autobuild had been started in `DIR` (as git -C and go -C do)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if chdir == "" {
			return nil
		}
		if err := os.Chdir(chdir); err != nil {
			return usageErr("-C %s: %w", chdir, err)
		}
		return nil
	}
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(flagError)
	opts.register(root)
	root.AddCommand(newValidate(s), newStatus(s), newReview(s), newSteer(s), newWatch(s), newDemo(s), newSimAgent(s), newReport(s), newVersion(s), newWorker(s))
	root.ValidArgsFunction = completePlanFile
	root.SuggestionsMinimumDistance = 2
	registerCompletions(root)
	return root
}

func usageErr(format string, args ...any) error {
	return &exitcode.Error{Code: exitcode.Usage, Err: fmt.Errorf(format, args...)}
}

// version is the module version when built from a tagged module, else the
// VCS revision, else "dev".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 7 {
			return "dev-" + s.Value[:7]
		}
	}
	return "dev"
}

// selfCommand is how the engine starts the built-in simulated agent: this
// very binary, with the hidden sim-agent subcommand.
func selfCommand() []string {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return []string{exe, "sim-agent"}
}
