package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// checker validates decoded values, keeping the first error, which names
// the file, the key's line and the key.
type checker struct {
	path, text string
	err        error
}

// fail records an error about key (a dotted key: "gates.test").
func (c *checker) fail(key, format string, args ...any) {
	if c.err != nil {
		return
	}
	line := keyLine(c.text, strings.Split(key, "."))
	loc := c.path
	if line > 0 {
		loc = fmt.Sprintf("%s:%d", c.path, line)
	}
	c.err = fmt.Errorf("%s: %s: %s", loc, key, fmt.Sprintf(format, args...))
}

// agents reads "agent": one string or a list of strings.
func (c *checker) agents(v any) []string {
	var out []string
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		out = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				c.fail("agent", "must be a string or a list of strings")
				return nil
			}
			out = append(out, s)
		}
	default:
		c.fail("agent", "must be a string or a list of strings")
		return nil
	}
	for _, a := range out {
		if strings.TrimSpace(a) == "" {
			c.fail("agent", "an agent cannot be empty")
		}
	}
	if len(out) == 0 {
		c.fail("agent", "the list is empty: name at least one agent, or leave the key out")
	}
	return out
}

// duration parses a duration value ("" is not set).
func (c *checker) duration(key, s string) Duration {
	if s == "" {
		return Duration{}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		c.fail(key, "%q is not a duration (write e.g. 30m, 90s or 1h30m)", s)
		return Duration{}
	}
	if d <= 0 {
		c.fail(key, "must be more than 0, not %q", s)
	}
	return Duration{d}
}

// durationOrZero reads a duration that may be 0 ("0" or "0s").
func (c *checker) durationOrZero(key, s string) Duration {
	if s == "0" {
		return Duration{}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		c.fail(key, "%q is not a duration of 0 or more (write e.g. 6h, 90m, or 0 to never wait)", s)
		return Duration{}
	}
	return Duration{d}
}

// gates reads [gates]: kind = "command" or kind = ["command", ...], in the
// order of plan.GateKinds.
func (c *checker) gates(table map[string]any) []plan.Gate {
	var out []plan.Gate
	for kind := range table {
		if !slices.Contains(plan.GateKinds, kind) {
			c.fail("gates."+kind, "unknown gate kind (kinds: %s)", strings.Join(plan.GateKinds, ", "))
			return nil
		}
	}
	for _, kind := range plan.GateKinds {
		v, ok := table[kind]
		if !ok {
			continue
		}
		key := "gates." + kind
		var commands []string
		switch v := v.(type) {
		case string:
			commands = []string{v}
		case []any:
			for _, e := range v {
				s, ok := e.(string)
				if !ok {
					c.fail(key, "must be a command or a list of commands")
					return nil
				}
				commands = append(commands, s)
			}
		default:
			c.fail(key, "must be a command or a list of commands")
			return nil
		}
		if len(commands) == 0 {
			c.fail(key, "the list is empty: give a command, or leave the kind out")
		}
		for _, cmd := range commands {
			if strings.TrimSpace(cmd) == "" {
				c.fail(key, "a gate command cannot be empty")
			}
			out = append(out, plan.Gate{Kind: kind, Command: strings.TrimSpace(cmd)})
		}
	}
	return out
}

// patterns checks [[classify]] entries with the classifier's own rules
// (known type, valid "in", a regular expression that compiles).
func (c *checker) patterns(ps []failure.Pattern) []failure.Pattern {
	for i, p := range ps {
		if _, err := failure.NewClassifier([]failure.Pattern{p}); err != nil {
			c.failAt(classifyLine(c.text, i), fmt.Sprintf("classify[%d]", i), err.Error())
			return nil
		}
	}
	return ps
}

// failAt records an error at a known line.
func (c *checker) failAt(line int, key, msg string) {
	if c.err != nil {
		return
	}
	loc := c.path
	if line > 0 {
		loc = fmt.Sprintf("%s:%d", c.path, line)
	}
	c.err = fmt.Errorf("%s: %s: %s", loc, key, msg)
}

// worktree checks [worktree].
func (c *checker) worktree(w worktreeFile) wtenv.Config {
	for _, p := range w.Copy {
		if strings.TrimSpace(p) == "" || strings.HasPrefix(strings.TrimSpace(p), "#") {
			c.fail("worktree.copy", "%q is not a pattern (write a path such as .env or node_modules)", p)
		}
	}
	if w.Ports < 0 || w.Ports > 1000 {
		c.fail("worktree.ports", "must be from 1 to 1000 (leave it out for %d), not %d", wtenv.DefaultPorts, w.Ports)
	}
	if w.PortBase != 0 && (w.PortBase < 1024 || w.PortBase > 65535-max(w.Ports, wtenv.DefaultPorts)) {
		c.fail("worktree.port_base", "must be a port from 1024 to %d, not %d", 65535-max(w.Ports, wtenv.DefaultPorts), w.PortBase)
	}
	return wtenv.Config{Copy: w.Copy, Setup: strings.TrimSpace(w.Setup), Teardown: strings.TrimSpace(w.Teardown),
		Ports: w.Ports, PortBase: w.PortBase}
}
