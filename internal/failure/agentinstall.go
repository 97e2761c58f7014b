package failure

import (
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// agentCLI is an agent CLI whose broken installation autobuild recognizes
// in the agent's own output, and how to reinstall it.
type agentCLI struct {
	program string
	// markers are path or module names only this CLI's installation has:
	// its npm package folder, its Python package.
	markers   []string
	reinstall string
}

// agentCLIs are the known agent CLIs: every program of the presets' rows
// (package preset), with its markers and how to mend it.
func agentCLIs() []agentCLI {
	var out []agentCLI
	for _, in := range preset.Programs() {
		out = append(out, agentCLI{program: in.Program, markers: in.Markers, reinstall: in.Repair()})
	}
	return out
}

var (
	// node cannot load a module; requireStack follows within a few lines.
	nodeMissingRE = lazyre.New(`(?m)^Error: Cannot find module '([^']+)'(?:\n.*){0,12}?\n\s*requireStack: \[([^\]]*)\]`)
	// python cannot import a module: from a traceback or from python -m.
	pyMissingRE = lazyre.New(`(?m)^(?:ModuleNotFoundError: No module named '([\w.]+)'|\S*python[\d.]*: No module named ([\w.]+))\s*$`)
	// the outermost frame of a Python traceback: the program that was run.
	pyEntryRE = lazyre.New(`(?m)^Traceback \(most recent call last\):\n\s*File "([^"]+)", line \d+`)
)

// brokenAgentInstall reads the end of a failed agent's own output for its
// runtime saying it cannot load the agent itself: node's "Cannot find
// module '…/claude-code/cli.js'" for the program it was told to run, or
// python's "No module named 'aider'" for the agent's own package. It
// returns the line that says so and the CLI, when known. A module missing
// for a test the agent ran has a require stack (node) or is not the
// agent's (python), and does not count.
func brokenAgentInstall(tail, agentCommand string) (line string, cli *agentCLI, ok bool) {
	prog := program(agentCommand)
	if m := nodeMissingRE().FindStringSubmatchIndex(tail); m != nil {
		module, stack := tail[m[2]:m[3]], tail[m[4]:m[5]]
		cli := knownCLI(prog, module+" "+stack+" "+agentCommand)
		// The program node was told to run is missing (no require stack),
		// and it is the agent's: named in its command, or a file of a
		// package of the agent's name. Or a file of a known CLI is.
		main := strings.TrimSpace(stack) == "" && (strings.Contains(agentCommand, module) || namesProgram(module, prog))
		if main || (cli != nil && cli.owns(module+" "+stack)) {
			return lineAt(tail, m[0]), cli, true
		}
	}
	for _, m := range pyMissingRE().FindAllStringSubmatchIndex(tail, -1) {
		module := ""
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				module = tail[m[g]:m[g+1]]
			}
		}
		top := strings.SplitN(module, ".", 2)[0]
		cli := knownCLI(prog, module+" "+agentCommand)
		own := cli != nil && cli.owns(top)
		if e := pyEntryRE().FindStringSubmatch(tail); e != nil && filepath.Base(e[1]) == prog && prog != "" {
			own = true // the traceback starts in the agent's own launcher
		}
		if runsModule(agentCommand, module) {
			own = true // python -m <the agent>
		}
		if own {
			return lineAt(tail, m[0]), cli, true
		}
	}
	return "", nil, false
}

// knownCLI returns the agent CLI whose files or modules text names, else
// the one the program is, else nil: the missing file says which CLI is
// broken better than the name it was started by (a wrapper, node itself).
func knownCLI(prog, text string) *agentCLI {
	clis := agentCLIs()
	for i := range clis {
		if clis[i].owns(text) {
			return &clis[i]
		}
	}
	for i := range clis {
		if clis[i].program == prog {
			return &clis[i]
		}
	}
	return nil
}

// owns reports whether text names one of the CLI's markers as a path
// element or module name.
func (c *agentCLI) owns(text string) bool {
	for _, mk := range c.markers {
		for _, w := range strings.FieldsFunc(text, func(r rune) bool {
			return r == ' ' || r == '\'' || r == '"' || r == ',' || r == '\n' || r == '.'
		}) {
			if w == mk || strings.Contains(w, "/"+mk+"/") || strings.HasPrefix(w, mk+"/") || strings.HasSuffix(w, "/"+mk) {
				return true
			}
		}
	}
	return false
}

// namesProgram reports whether a module path belongs to the program prog:
// a folder or the file of that name ("/usr/lib/node_modules/mycli/bin/run.js",
// "…/bin/mycli.js").
func namesProgram(path, prog string) bool {
	if prog == "" {
		return false
	}
	for _, el := range strings.Split(path, "/") {
		if el == prog || strings.TrimSuffix(el, filepath.Ext(el)) == prog {
			return true
		}
	}
	return false
}

// runsModule reports whether a command line runs module with python -m.
func runsModule(command, module string) bool {
	words := strings.Fields(command)
	for i, w := range words {
		if w == "-m" && i+1 < len(words) && strings.Trim(words[i+1], `"'`) == module {
			return true
		}
	}
	return false
}

// agentInstallReport is the agent_setup report of an agent that cannot
// start because its own installation is broken.
func agentInstallReport(ev Evidence, line string, cli *agentCLI) failreport.Report {
	name := program(ev.AgentCommand)
	if cli != nil {
		name = cli.program
	}
	if name == "" {
		name = "the agent"
	}
	rep := failreport.Report{Type: failreport.AgentSetup,
		Message:   name + " cannot start: its installation is broken: " + line,
		Details:   "the agent's own program or package is missing, so it never ran; a retry would fail the same way",
		BlockedOn: name + "'s installation is broken"}
	if cli != nil {
		rep.Fix = "reinstall " + cli.program + ": " + cli.reinstall
	} else {
		rep.Fix = "reinstall the agent CLI (`" + ev.AgentCommand + "`), then check that it starts"
	}
	return rep
}
