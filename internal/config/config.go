// Package config reads autobuild.toml, the optional file at the root of a
// repository that sets what the run flags set (README), so a team can
// commit them; flags override it. Every key is optional:
//
//	# autobuild.toml
//	agent = "claude"                 # or a list: ["claude", "codex"]; a retry prefers another
//	max_parallel = 4                 # phases at once (0: the number of CPUs, at least 2)
//	phase_timeout = "45m"            # per attempt; a timed-out retry gets twice the time
//	idle_timeout = "10m"             # an attempt silent for this long times out
//	wait_limit = "6h"                # longest wait for a usage limit's reset; "0" never waits
//	commit = "auto"                  # auto, message-only or single: the mode of new runs
//	scenario = "testdata/sim.json"   # the simulated agent's script, relative to this file
//
//	[gates]                          # replaces detection, unless the plan lists its own
//	build = "go build ./..."
//	lint = "golangci-lint run"
//	test = ["go test ./...", "go test -race ./internal/engine/..."]
//
//	[agents.claude]                  # a preset's own arguments and environment
//	args = ["--model", "opus"]       # after the preset's command line, before --agent's
//	env = { IS_SANDBOX = "1" }       # added to the agent's environment
//	# acp = true                     # through ACP (gemini --acp); any other name with
//	                                 # acp = true is an ACP agent of that program
//
//	max_cost = 20                    # US dollars for the whole run (docs/notify.md)
//	max_phase_cost = 5               # US dollars per phase
//
//	[notify]                         # who hears of a halt, a long wait, the end
//	webhook = "$SLACK_WEBHOOK_URL"   # a URL, or "$NAME" to read it from the environment
//	command = "ntfy publish builds"  # gets each notification's JSON on stdin
//
//	[worktree]                       # what each phase's worktree gets (docs/running.md)
//	copy = [".env", "node_modules"]  # ignored files of your checkout, gitignore syntax (+ .worktreeinclude)
//	setup = "npm ci --prefer-offline" # run in each new worktree before the agent
//	teardown = "docker compose down" # run when the phase is done with the worktree
//	ports = 10                       # ports per running phase: $AUTOBUILD_PORT and up
//	port_base = 41000                # the first phase's first port
//
//	[[classify]]                     # extra failure patterns, tried before the built-in ones
//	type = "rate_limited"
//	match = "quota exceeded"         # a regular expression, case-insensitive
//	in = "output"                    # output, gate or any (the default)
//
// Agents are --agent values: a preset (claude, codex, aider, gemini, qwen,
// opencode, copilot, pi), acp:COMMAND, sim,
// or a command line. Durations are Go durations ("90s", "1h30m"). Gate
// kinds are build, typecheck, lint, format and test; a kind may list
// several commands. Unknown keys are errors, reported with their line, so
// a typo never silently does nothing.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// FileName is the config file's name at the repository root.
const FileName = "autobuild.toml"

// Commit modes (docs/running.md).

// Config is autobuild.toml, checked. The zero Config means "no file".
type Config struct {
	// Path is the file that was read ("" when there is none).
	Path string
	// Agent holds --agent values, in order.
	Agent       []string
	MaxParallel int
	// PhaseTimeout and IdleTimeout are zero when not set.
	PhaseTimeout Duration
	IdleTimeout  Duration
	// WaitLimit is wait_limit, nil when not set ("0" is set: never wait).
	WaitLimit *Duration
	// Commit is auto, message-only, single, or "" when not set.
	Commit string
	// Schedule is batches or eager, "" when not set.
	Schedule state.Schedule
	// Verify is landing or off, "" when not set (docs/running.md, "The
	// line stays green").
	Verify string
	// Review is none, phase or batch, "" when not set.
	Review state.ReviewMode
	// Scenario is the sim agent's scenario file, made absolute against the
	// file's directory.
	Scenario string
	// Gates from [gates], in the order of plan.GateKinds.
	Gates []plan.Gate
	// Classify holds the user's failure patterns, in file order.
	Classify []failure.Pattern
	// Agents holds [agents.<preset>]: each preset's extra arguments and
	// environment.
	Agents map[string]AgentConfig
	// Worktree is [worktree]: the files, setup and ports of the phases'
	// worktrees.
	Worktree wtenv.Config
	// Budget is max_cost, max_phase_cost and max_cost_hard; Notify is
	// [notify] (notify.go).
	Budget Budget
	Notify Notify
	// Executor is [executor] (executor.go).
	Executor Executor
}

// AgentConfig is one [agents.<preset>] table.
type AgentConfig struct {
	// Args go after the preset's command line (and before the arguments
	// given in --agent).
	Args []string
	// Env holds KEY=value entries, sorted by key.
	Env []string
	// ACP runs the agent through the Agent Client Protocol: a preset with
	// an ACP mode switches to it (gemini --acp), and any other name is an
	// ACP agent of that program (`[agents.goose] acp = true, args =
	// ["acp"]` makes `--agent goose` run `goose acp`).
	ACP bool
}

// Duration is a time.Duration read from a string such as "30m".
type Duration struct{ time.Duration }

// fileConfig is the file as decoded, before checks.
type fileConfig struct {
	Agent        any                  `toml:"agent"`
	MaxParallel  int                  `toml:"max_parallel"`
	PhaseTimeout string               `toml:"phase_timeout"`
	IdleTimeout  string               `toml:"idle_timeout"`
	WaitLimit    string               `toml:"wait_limit"`
	Commit       string               `toml:"commit"`
	Schedule     string               `toml:"schedule"`
	Verify       string               `toml:"verify"`
	Review       string               `toml:"review"`
	Scenario     string               `toml:"scenario"`
	Gates        map[string]any       `toml:"gates"`
	Classify     []failure.Pattern    `toml:"classify"`
	Agents       map[string]agentFile `toml:"agents"`
	Worktree     worktreeFile         `toml:"worktree"`
	MaxCost      *float64             `toml:"max_cost"`
	MaxPhaseCost *float64             `toml:"max_phase_cost"`
	MaxCostHard  *bool                `toml:"max_cost_hard"`
	Notify       *notifyFile          `toml:"notify"`
	Executor     *executorFile        `toml:"executor"`
}

// worktreeFile is [worktree] as decoded.
type worktreeFile struct {
	Copy     []string `toml:"copy"`
	Setup    string   `toml:"setup"`
	Teardown string   `toml:"teardown"`
	Ports    int      `toml:"ports"`
	PortBase int      `toml:"port_base"`
}

// agentFile is one [agents.<preset>] table as decoded.
type agentFile struct {
	Args []string          `toml:"args"`
	Env  map[string]string `toml:"env"`
	ACP  bool              `toml:"acp"`
}

// Load reads root/autobuild.toml. A missing file is a zero Config and no
// error; a syntax error or an unknown key is an error naming the file and
// line, and an invalid value one naming the key.
func Load(root string) (*Config, error) {
	path := filepath.Join(root, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cfg, err := Parse(string(data), path)
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// Parse decodes and checks the text of a config file; path names it in
// errors and anchors a relative scenario path.
func Parse(text, path string) (*Config, error) {
	var fc fileConfig
	md, err := toml.Decode(text, &fc)
	if err != nil {
		return nil, decodeError(path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		k := undecoded[0]
		return nil, fmt.Errorf("%s:%d: unknown key %q (known keys: %s)", path, keyLine(text, k), k.String(), knownKeys(k))
	}
	c := &checker{path: path, text: text}
	cfg := &Config{Path: path}
	cfg.Agent = c.agents(fc.Agent)
	if fc.MaxParallel < 0 {
		c.fail("max_parallel", "must be 0 (the default) or more, not %d", fc.MaxParallel)
	}
	cfg.MaxParallel = fc.MaxParallel
	cfg.PhaseTimeout = c.duration("phase_timeout", fc.PhaseTimeout)
	cfg.IdleTimeout = c.duration("idle_timeout", fc.IdleTimeout)
	if fc.WaitLimit != "" {
		d := c.durationOrZero("wait_limit", fc.WaitLimit)
		cfg.WaitLimit = &d
	}
	if _, err := state.ParseCommitMode(fc.Commit); fc.Commit != "" && err != nil {
		c.fail("commit", "must be %s, not %q", state.CommitModeNames(), fc.Commit)
	}
	cfg.Commit = fc.Commit
	if fc.Schedule != "" {
		if _, err := state.ParseSchedule(fc.Schedule); err != nil {
			c.fail("schedule", "must be %s, not %q", state.ScheduleNames(), fc.Schedule)
		}
		cfg.Schedule = state.Schedule(fc.Schedule)
	}
	if fc.Verify != "" && fc.Verify != "landing" && fc.Verify != "off" {
		c.fail("verify", "must be landing or off, not %q", fc.Verify)
	}
	cfg.Verify = fc.Verify
	if fc.Review != "" {
		if _, err := state.ParseReviewMode(fc.Review); err != nil {
			c.fail("review", "must be %s, not %q", state.ReviewModeNames(), fc.Review)
		}
		cfg.Review = state.ReviewMode(fc.Review)
	}
	if fc.Scenario != "" {
		cfg.Scenario = fc.Scenario
		if !filepath.IsAbs(cfg.Scenario) {
			cfg.Scenario = filepath.Join(filepath.Dir(path), cfg.Scenario)
		}
	}
	cfg.Gates = c.gates(fc.Gates)
	cfg.Classify = c.patterns(fc.Classify)
	cfg.Agents = c.agentTables(fc.Agents)
	cfg.Worktree = c.worktree(fc.Worktree)
	cfg.Budget = c.budget(fc.MaxCost, fc.MaxPhaseCost, fc.MaxCostHard)
	cfg.Notify = c.notify(fc.Notify)
	cfg.Executor = c.executor(fc.Executor)
	if c.err != nil {
		return nil, c.err
	}
	return cfg, nil
}

// decodeError reports a TOML syntax or type error with the file and line.
func decodeError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		if pe.LastKey != "" {
			msg = fmt.Sprintf("%s (after key %q)", msg, pe.LastKey)
		}
		return fmt.Errorf("%s:%d: %s", path, pe.Position.Line, msg)
	}
	// Type mismatches come as `toml: line N (last key "k"): ...`.
	if m := typeErrorRE().FindStringSubmatch(err.Error()); m != nil {
		msg := strings.TrimPrefix(m[3], "incompatible types: ")
		if want, ok := expected[m[2]]; ok {
			msg = "must be " + want
		} else if want, ok := worktreeExpected[m[2]]; ok {
			msg = "must be " + want
		} else if strings.HasPrefix(m[2], "classify.") {
			msg = "must be a quoted string"
		}
		return fmt.Errorf("%s:%s: %s: %s", path, m[1], m[2], msg)
	}
	return fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "toml: "))
}

// expected says what each scalar key holds, for type errors.
var expected = map[string]string{
	"max_parallel":  "a whole number, such as 4",
	"phase_timeout": `a quoted duration, such as "30m"`,
	"idle_timeout":  `a quoted duration, such as "10m"`,
	"wait_limit":    `a quoted duration, such as "6h", or "0" to never wait`,
	"commit":        `"auto", "message-only" or "single", quoted`,
	"schedule":      `"batches" or "eager", quoted`,
	"verify":        `"landing" or "off", quoted`,
	"review":        `"none", "phase" or "batch", quoted`,
	"scenario":      "a quoted path",

	"max_cost":       "a number of US dollars, such as 20 or 7.5",
	"max_phase_cost": "a number of US dollars, such as 5 or 2.5",
	"max_cost_hard":  "true or false",
}

// worktreeExpected says what each [worktree] key holds, for type errors.
var worktreeExpected = map[string]string{
	"worktree.copy":      `a list of quoted patterns, such as [".env", "node_modules"]`,
	"worktree.setup":     "a quoted command line",
	"worktree.teardown":  "a quoted command line",
	"worktree.ports":     "a whole number, such as 10",
	"worktree.port_base": "a whole number, such as 41000",
}

// agentTables checks [agents.<preset>] tables.
func (c *checker) agentTables(tables map[string]agentFile) map[string]AgentConfig {
	if len(tables) == 0 {
		return nil
	}
	out := map[string]AgentConfig{}
	for name, t := range tables {
		key := strings.ToLower(name)
		presetNames := preset.Names()
		if !slices.Contains(presetNames, key) && !t.ACP {
			c.fail("agents."+name, "is not a preset: [agents.NAME] configures %s, or an ACP agent with acp = true (a custom command carries its own arguments)", strings.Join(presetNames, ", "))
			continue
		}
		if t.ACP && slices.Contains(presetNames, key) && !slices.Contains(preset.ACPNames(), key) {
			c.fail("agents."+name+".acp", "%s has no ACP mode: acp = true works for %s, and for any other name as an ACP agent of that program", key, strings.Join(preset.ACPNames(), ", "))
			continue
		}
		ac := AgentConfig{Args: t.Args, ACP: t.ACP}
		for k, v := range t.Env {
			if k == "" || strings.ContainsAny(k, "= ") {
				c.fail("agents."+name+".env", "%q is not an environment variable name", k)
			}
			ac.Env = append(ac.Env, k+"="+v)
		}
		slices.Sort(ac.Env)
		out[key] = ac
	}
	return out
}

// typeErrorRE matches the TOML decoder's type errors.
var typeErrorRE = lazyre.New(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// knownKeys lists the keys allowed next to an unknown one.
func knownKeys(k toml.Key) string {
	switch {
	case len(k) >= 2 && k[0] == "gates":
		return strings.Join(plan.GateKinds, ", ")
	case len(k) >= 2 && k[0] == "classify":
		return "type, match, in"
	case len(k) >= 3 && k[0] == "agents":
		return "args, env, acp"
	case len(k) >= 2 && k[0] == "worktree":
		return "copy, setup, teardown, ports, port_base"
	case len(k) >= 2 && k[0] == "notify":
		return "terminal, desktop, webhook, command, events, limit_wait"
	case len(k) >= 2 && k[0] == "executor":
		return "kind, address, namespace, task_queue, remote, heartbeat_timeout"
	}
	return "agent, max_parallel, phase_timeout, idle_timeout, wait_limit, commit, schedule, verify, review, scenario, max_cost, max_phase_cost, max_cost_hard, [gates], [agents.NAME], [worktree], [[classify]], [notify], [executor]"
}
