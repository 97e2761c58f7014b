package failure

import (
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"path/filepath"
	"regexp"
	"slices"
)

// missingToolREs extract the name of a command that is not installed from
// shells' and runtimes' messages. Each has one capture group: the name.
var missingToolREs = []func() *regexp.Regexp{
	lazyre.New(`exec: "([^"]+)": executable file not found`), // Go's os/exec
	lazyre.New(`(?i)command not found: (\S+)`),               // zsh
	lazyre.New(`(?i)env: '?([^\s':]+)'?: no such file or directory`),
	lazyre.New(`(?i)([^\s:'"]+): (?:command )?not found`), // sh, bash
	lazyre.New(`(?i)no module named '?([\w.]+)'?`),        // python -m
}

// MissingTool returns the command that text says is not installed, or "".
// The last such message wins: it is the one that ended the output.
func MissingTool(text string) string {
	text = clean(text)
	best, at := "", -1
	for _, re := range missingToolREs {
		for _, m := range re().FindAllStringSubmatchIndex(text, -1) {
			if m[0] > at {
				best, at = filepath.Base(text[m[2]:m[3]]), m[0]
			}
		}
	}
	return best
}

// gateTool decides whether a failed gate failed because its own tool is not
// installed, and names the tool. Exit 127 is the shell's "command not found"
// whatever the output says; otherwise a missing-command message counts only
// when the command it names is part of the gate's command line, since a
// test may legitimately report some other "not found".
func (c *Classifier) gateTool(g *GateEvidence) (string, bool) {
	out := clean(g.Output)
	named := MissingTool(out)
	if g.ExitCode == 127 {
		if named == "" {
			named = program(g.Command)
		}
		return named, true
	}
	if named == "" || !slices.Contains(commandWords(g.Command), named) {
		return "", false
	}
	if _, ok := c.match(out, InGate, failreport.DependencyMissing); ok {
		return named, true
	}
	return "", false
}
