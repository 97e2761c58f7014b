package adapters

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

// installHint is how to install a's CLI, from its preset's row.
func installHint(a agent.Agent) string {
	if a.ACP {
		if p, ok := preset.Named(a.Preset); ok && p.ACP != nil {
			return p.ACPProgram().Command
		}
		if p, ok := preset.OfACPProgram(a.Args); ok {
			return p.ACPProgram().Command
		}
		return "see the agent's documentation"
	}
	p, _ := preset.Named(a.Preset)
	return p.Install.Command
}

// ErrUnknownAgent is wrapped by Preflight's error for an --agent value that
// is neither a preset nor a command found on PATH (a typo: "clod").
var ErrUnknownAgent = errors.New("unknown agent")

// Preflight checks the resolved agents before anything is written: a plain
// one-word command must exist (a typo of a preset is an ErrUnknownAgent);
// a preset's CLI must be installed and free of the setup problems its
// adapter knows. It returns the problems found; an unknown agent is an
// error instead, since it is a mistake in the command line.
func Preflight(agents []agent.Agent, sys func(agent.Agent) agent.System, lookPath func(string) (string, error)) ([]agent.SetupProblem, error) {
	var problems []agent.SetupProblem
	seen := map[string]bool{}
	for _, a := range agents {
		if seen[a.Spec] {
			continue
		}
		seen[a.Spec] = true
		ad := For(a)
		if ad == nil {
			if a.Shell == "" && len(a.Args) == 1 && a.Name != agent.SimName && !strings.ContainsRune(a.Args[0], '/') {
				if _, err := lookPath(a.Args[0]); err != nil {
					return nil, fmt.Errorf("%w %q: it is not a preset (%s, or sim) and no program of that name is on PATH",
						ErrUnknownAgent, a.Args[0], strings.Join(preset.Names(), ", "))
				}
			}
			continue
		}
		bin := ad.Name()
		if _, err := lookPath(bin); err != nil {
			problems = append(problems, agent.SetupProblem{Agent: a.Name,
				Problem: fmt.Sprintf("%s is not installed: no %s on PATH", a.Name, bin),
				Fix:     "install it: " + installHint(a) + " (or put its folder on PATH)"})
			continue
		}
		problems = append(problems, ad.Check(sys(a))...)
	}
	return problems, nil
}

// OSSystem is the System of this process, with the agent's own env
// (autobuild.toml, and the adapter's) applied over os.Getenv.
func OSSystem(a agent.Agent) agent.System {
	env := map[string]string{}
	for _, kv := range a.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	home, _ := os.UserHomeDir()
	return agent.System{
		Getenv: func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			return os.Getenv(k)
		},
		Home: home,
		UID:  os.Geteuid(),
		Exists: func(p string) bool {
			_, err := os.Stat(p)
			return err == nil
		},
		ReadFile: func(p string) ([]byte, error) {
			fi, err := os.Stat(p)
			if err != nil {
				return nil, err
			}
			if fi.Size() > 1<<20 {
				return nil, fmt.Errorf("%s is larger than 1 MiB", p)
			}
			return os.ReadFile(p)
		},
	}
}

// LookPath finds a program on PATH, as the engine will when it starts it.
func LookPath(name string) (string, error) { return exec.LookPath(name) }
