// Package gates decides which quality gates a phase must pass (docs/running.md
// "Gates"): the plan's "## Quality Gates", else autobuild.toml's [gates],
// else what the repository's manifests suggest (go.mod, package.json,
// pyproject.toml, Cargo.toml). It also says which gates' tools are not
// installed. The engine runs the gates; this package only lists them.
package gates

import (
	"os/exec"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/plan"
)

// Gate is one quality gate a phase must pass.
type Gate struct {
	// Kind is build, typecheck, lint, format or test.
	Kind string `json:"kind"`
	// Command is a shell command line, run with sh -c in the worktree.
	Command string `json:"command"`
	// Declared is set for gates from the plan or autobuild.toml. A declared
	// gate whose tool is missing fails the phase (dependency_missing); a
	// detected one is shown as "not run (tool missing)".
	Declared bool `json:"declared,omitempty"`
	// Tool is the program the gate needs ("go", "npm", "ruff").
	Tool string `json:"tool,omitempty"`
	// ToolMissing is set when Tool is not on PATH.
	ToolMissing bool `json:"tool_missing,omitempty"`
}

// Skipped reports whether the gate is not run: a detected gate whose tool
// is missing. (A declared one with its tool missing fails the phase.)
func (g Gate) Skipped() bool { return !g.Declared && g.ToolMissing }

// Where declared gates come from, as Declared says.
const (
	FromPlan     = "plan"
	FromConfig   = "autobuild.toml"
	FromDetected = "detected"
)

// Declared returns the gates a run declares and where they come from: the
// plan's if it lists any, else the config's; none (FromDetected) when
// neither does, and the run detects them from the repository.
func Declared(planGates, configGates []plan.Gate) ([]plan.Gate, string) {
	switch {
	case len(planGates) > 0:
		return planGates, FromPlan
	case len(configGates) > 0:
		return configGates, FromConfig
	default:
		return nil, FromDetected
	}
}

// Resolve returns the gates of a run: the plan's gates if it declares any,
// else the config's, else the ones Detect finds in dir; declared gates are
// marked Declared. Tools are looked up with lookPath (exec.LookPath when
// nil). Gates come in the order build, typecheck, lint, format, test;
// declared gates of one kind keep their order.
func Resolve(planGates, configGates []plan.Gate, dir string, lookPath func(string) (string, error)) []Gate {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	declared, _ := Declared(planGates, configGates)
	var out []Gate
	if len(declared) > 0 {
		for _, g := range declared {
			out = append(out, Gate{Kind: g.Kind, Command: g.Command, Declared: true, Tool: ToolOf(g.Command)})
		}
	} else {
		out = detect(dir)
	}
	for i := range out {
		out[i].ToolMissing = missing(out[i].Tool, lookPath)
	}
	sortByKind(out)
	return out
}

// Detect returns the gates the repository in dir suggests, with their
// tools looked up on PATH.
func Detect(dir string) []Gate {
	return Resolve(nil, nil, dir, exec.LookPath)
}

// sortByKind orders gates by plan.GateKinds, stably; unknown kinds go last.
func sortByKind(gs []Gate) {
	rank := func(kind string) int {
		if i := slices.Index(plan.GateKinds, kind); i >= 0 {
			return i
		}
		return len(plan.GateKinds)
	}
	slices.SortStableFunc(gs, func(a, b Gate) int { return rank(a.Kind) - rank(b.Kind) })
}

// Missing reports whether tool is not on PATH now. The engine asks again
// before each attempt of a phase: an earlier phase may have installed it.
func Missing(tool string) bool {
	return missing(tool, exec.LookPath)
}

// missing reports whether a gate's tool is not installed. Shell builtins
// are always there; a path with a slash is not looked up, since a relative
// one is relative to the worktree (and may be created by the phase).
func missing(tool string, lookPath func(string) (string, error)) bool {
	if tool == "" || builtins[tool] || strings.Contains(tool, "/") {
		return false
	}
	_, err := lookPath(tool)
	return err != nil
}
