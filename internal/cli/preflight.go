package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
)

// preflightEnv is what the agents' setup checks look at: this process's
// environment, files and PATH, unless a test gives its own.
type preflightEnv struct {
	system   func(agent.Agent) agent.System
	lookPath func(string) (string, error)
}

// preflight checks every agent before anything is written: an --agent
// value that is neither a preset nor a program on PATH is bad usage (exit
// 2, with the presets listed); a preset CLI that is not installed or not
// set up to run here (no login, root without its sandbox setting) refuses
// the start (exit 3), with each problem's fix.
func preflight(agents []agent.Agent, root string, env *preflightEnv) error {
	if env == nil {
		env = &preflightEnv{lookPath: agent.LookPath, system: func(a agent.Agent) agent.System {
			s := agent.OSSystem(a)
			s.Dir = root
			return s
		}}
	}
	problems, err := agent.Preflight(agents, env.system, env.lookPath)
	if errors.Is(err, agent.ErrUnknownAgent) {
		return usageErr("--agent: %w", err)
	}
	if err != nil {
		return err
	}
	if len(problems) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the agent cannot run here, so nothing was started:\n")
	for _, p := range problems {
		fmt.Fprintf(&b, "  %s\n    fix: %s\n", p.Problem, p.Fix)
	}
	return &exitcode.Error{Code: exitcode.Refused, Err: errors.New(strings.TrimRight(b.String(), "\n"))}
}
