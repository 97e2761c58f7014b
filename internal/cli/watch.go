package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/tui"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

func newWatch(s Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "watch [DIR]",
		Short: "Follow a run in DIR (default .) live, read-only, from its state files",
		Long: `Show the run in DIR's .autobuild/ in the terminal UI, live and read-only: it
follows the state files and logs with fsnotify, so it works for a run started
with --no-tui in another terminal, under CI, or by another user. It waits for a
run to appear if there is none yet. Quitting it never touches the run.`,
		Example: "  autobuild watch\n  autobuild watch ~/src/project",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := repoRootOf(dirArg(args))
			if err != nil {
				return err
			}
			if !isTerminal(s.Out) || !isTerminal(s.In) {
				return &exitcode.Error{Code: exitcode.Usage,
					Err: errors.New("watch needs a terminal; for a script, read the state with: autobuild status --json")}
			}
			return watchRun(cmd.Context(), s, root)
		},
	}
}

// watchRun runs the read-only TUI on the updates of root's state directory.
func watchRun(ctx context.Context, s Streams, root string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	updates, err := watch.Watch(ctx, root, watch.DefaultDebounce)
	if err != nil {
		return &exitcode.Error{Code: exitcode.Refused, Err: err}
	}
	// The commands name the run's plan and commit mode, which the UI
	// learns from run.json (runctl.Commands); the run's agents come back
	// from run.json by themselves. Both commands run where the run did.
	commands := followedCommands(s.launcher(), root)
	stateDir := ".autobuild/"
	if relDir(root) != "" { // watching another directory
		stateDir = filepath.Join(root, ".autobuild") + "/"
	}
	m := tui.New(tui.Options{Watch: updates, ReadOnly: true, Dir: root, Root: root, Context: ctx,
		Commands: commands, StateDir: stateDir,
		NoColor: os.Getenv("NO_COLOR") != "", ColorFGBG: os.Getenv("COLORFGBG"), Mouse: true})
	prog := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(s.In), tea.WithOutput(s.Out))
	if _, err := prog.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fmt.Errorf("terminal UI: %w", err)
	}
	return nil
}
