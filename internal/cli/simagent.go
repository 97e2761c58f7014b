package cli

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/agent/sim"
)

// newSimAgent is the built-in simulated agent's entry point. The engine runs
// it as a real process (this binary, `sim-agent`), so it goes through the
// same process groups, timeouts and logs as a real agent CLI.
func newSimAgent(s Streams) *cobra.Command {
	return &cobra.Command{
		Use:                "sim-agent",
		Short:              "The simulated agent (run by the engine, not by people)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := sim.Main(args, os.Getenv, s.In, s.Out, s.Err); code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}
