package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/demo"
	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func newDemo(s Streams) *cobra.Command {
	var (
		dir         string
		halt, noTUI bool
		asJSON      bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the built-in demo: a sample repository, a six-phase plan and a simulated agent",
		Long: `Create a small Go project in a new git repository with a six-phase plan
(0, 1, 2A/2B/2C in parallel, 3) and run it with the built-in simulated agent and
real quality gates (go build, gofmt, go test). Phase 2B's first attempt breaks
the tests; its retry fixes them. With --halt, 2B fails twice and the run halts,
so you can fix it by hand and resume.`,
		Example: "  autobuild demo\n  autobuild demo --no-tui\n  autobuild demo --halt --dir /tmp/try",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				d, err := os.MkdirTemp("", "autobuild-demo-")
				if err != nil {
					return err
				}
				dir = d
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			// The printed commands name it whole: the fix is pasted in
			// another terminal, which starts somewhere else.
			abs, err := filepath.Abs(dir)
			if err != nil {
				return fmt.Errorf("the demo's directory %s: %w", dir, err)
			}
			dir = abs
			proj, err := demo.Setup(dir, halt)
			if err != nil {
				return fmt.Errorf("setting up the demo in %s: %w", dir, err)
			}
			pl, err := plan.ParseFile(filepath.Join(proj.Repo, proj.Plan))
			if err != nil {
				return fmt.Errorf("the demo's own plan is invalid (a bug): %w", err)
			}
			pl.Path = proj.Plan
			sim, err := agent.Resolve("sim", selfCommand())
			if err != nil {
				return err
			}
			// git -C, not cd: the resume command after it may have to run
			// from where the user is (a `go run` one does).
			repo := shell.Quote(proj.Repo)
			fix := fmt.Sprintf("cp %s %s && git -C %s add calc && git -C %s commit -m 'fix: write Format'",
				shell.Quote(filepath.Join(dir, "fix", "format.go")), shell.Quote(filepath.Join(proj.Repo, "calc", "format.go")), repo, repo)
			self := s.launcher()
			o := &runOptions{planPath: proj.Plan, noTUI: noTUI, json: asJSON,
				commands: func(mode string) string {
					// run.json keeps the agent (sim) and its scenario.
					return self.at(proj.Repo, "plan.md", mode)
				}}
			if halt {
				// In the UI the user fixes in another terminal and presses
				// r: the halt screen must say what to run.
				o.fixStep = "Demo: the fix for 2B is ready; apply it in another terminal, then resume (r in the UI): " + fix
				o.fixCommand = fix
			}
			fc, err := config.Load(proj.Repo)
			if err != nil {
				return fmt.Errorf("the demo's own autobuild.toml is invalid (a bug): %w", err)
			}
			cfg := engine.Config{Dir: proj.Repo, Plan: pl, CommitMode: state.CommitAuto, Agents: []agent.Agent{sim},
				MaxParallel: 3, PhaseTimeout: 5 * time.Minute, SimScenario: proj.Scenario, Worktree: fc.Worktree}
			fmt.Fprintf(s.Err, "autobuild demo: sample repository in %s\n", proj.Repo)
			var runErr error
			switch {
			case asJSON:
				runErr = runHeadless(cmd.Context(), s, o, cfg, jsonPrinter, false)
			case !noTUI && isTerminal(s.Out):
				runErr = runTUI(cmd.Context(), s, o, cfg)
			default:
				runErr = runHeadless(cmd.Context(), s, o, cfg, plainPrinter(false), true)
			}
			if !asJSON {
				fmt.Fprintf(s.Out, "\nThe demo repository is %s\n  cd %s && git log --oneline && go run ./cmd/calc '1 + 2 * 3'\n", proj.Repo, shell.Quote(proj.Repo))
				var exit *exitError
				if errors.As(runErr, &exit) && exit.code == exitcode.Halted {
					fmt.Fprintf(s.Out, "To fix the halted phase by hand: %s\nthen resume: %s\n", fix, o.commands("--resume"))
					if hint := self.installHint(); hint != "" {
						fmt.Fprintln(s.Out, hint)
					}
				}
			}
			return runErr
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "where to create the demo (default: a new temporary directory)")
	cmd.Flags().BoolVar(&halt, "halt", false, "make phase 2B fail twice, so the run halts and can be resumed after a fix")
	cmd.Flags().BoolVar(&noTUI, "no-tui", false, "print plain log lines instead of the terminal UI")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON event per line")
	return cmd
}
