package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// Scenario is the script of the simulated agent (`--agent sim`): per phase
// and attempt, what it prints, which files it changes in the worktree, how
// long it takes and how it ends. It is a JSON file, named by
// --scenario, `scenario` in autobuild.toml, or $AUTOBUILD_SIM_SCENARIO:
//
//	{
//	  "default": {"steps": [{"say": "Nothing to do"}], "exit": 0},
//	  "phases": {
//	    "1": [{
//	      "steps": [
//	        {"say": "Reading the phase", "delay": "300ms"},
//	        {"write": "calc/calc.go", "content": "package calc\n"},
//	        {"append": "README.md", "content": "## Calc\n"},
//	        {"delete": "old.go"},
//	        {"sleep": "1s"},
//	        {"say": "Done"}
//	      ],
//	      "result": {"status": "complete", "tasks": {"total": 2, "completed": 2},
//	                 "commit_message": "feat(calc): add the calculator"}
//	    }],
//	    "2b": [
//	      {"steps": [{"say": "Trying"}], "exit": 1, "stderr": ["error: rate limit exceeded"]},
//	      {"steps": [{"write": "calc/format.go", "content": "package calc\n"}]}
//	    ],
//	    "3": [{"hang": true, "ignore_sigterm": true}]
//	  }
//	}
//
// "phases" maps phase ids (normalized like the plan's: "Phase 2-B" is "2b")
// to the phase's attempts, first attempt first; an attempt past the end of
// the list plays the last entry. A rate-limited attempt that autobuild runs
// again plays the next entry (entries count the agent's runs in this run
// of autobuild, $AUTOBUILD_AGENT_RUN). A phase that is not listed plays "default";
// without "default", a built-in one prints a few lines and succeeds.
//
// An attempt plays its steps in order, then prints its "stderr" lines on
// standard error and its "result" (a result object; phase_id is filled in)
// as a fenced json block, then exits with "exit" (0 when absent). With
// "hang" it never exits: it sleeps until it is killed, for timeout tests;
// with "ignore_sigterm" it ignores SIGTERM from the start, so only SIGKILL
// stops it.
//
// Each step does one thing, after waiting its optional "delay":
//
//	{"say": "line"}                    print a line on standard output
//	{"write": "path", "content": "…"}  create or replace a file
//	{"append": "path", "content": "…"} append to a file (created if missing)
//	{"delete": "path"}                 remove a file or directory (if present)
//	{"sleep": "2s"}                    wait
//	{"limit": "usage 5s"}              stop as a provider's limit stops an agent:
//	                                   "usage 5s" (a usage limit resetting in 5 s),
//	                                   "rate" (a 429) or "context" (prompt too long)
//
// Paths are relative to the worktree and may not leave it (no absolute
// paths, no ".."). Durations are Go durations ("150ms", "2s"). Unknown keys
// are errors, so a typo does not silently change a test.
type Scenario struct {
	Default *Attempt `json:"default,omitempty"`
	// Phases is keyed by phase id: as the file spells it until
	// ParseScenario normalizes it.
	Phases map[phaseid.ID][]Attempt `json:"phases,omitempty"`
}

// Attempt is what the simulated agent does in one attempt of a phase.
type Attempt struct {
	Steps []Step `json:"steps,omitempty"`
	Exit  int    `json:"exit,omitempty"`
	// Result is printed as a fenced json block after the steps.
	Result        map[string]any `json:"result,omitempty"`
	Hang          bool           `json:"hang,omitempty"`
	IgnoreSigterm bool           `json:"ignore_sigterm,omitempty"`
	Stderr        []string       `json:"stderr,omitempty"`
}

// Step is one action of an attempt; exactly one of Say, Write, Append,
// Delete, Sleep and Limit is set (Kind says which).
type Step struct {
	Say     string `json:"say,omitempty"`
	Write   string `json:"write,omitempty"`
	Append  string `json:"append,omitempty"`
	Content string `json:"content,omitempty"`
	Delete  string `json:"delete,omitempty"`
	Sleep   string `json:"sleep,omitempty"`
	// Limit prints a provider's refusal and stops the agent (status 1):
	// "usage 5s", "rate" or "context" (see limitMessage).
	Limit string `json:"limit,omitempty"`
	Delay string `json:"delay,omitempty"`
	// Kind is the step's action ("say", "write", ...), set when decoding.
	Kind string `json:"-"`
	// err is what was wrong with the step's JSON; it is reported by the
	// scenario's check, which knows where the step is.
	err error
}

// stepKeys are the keys a step may have; the first six are its actions.
var stepKeys = []string{"say", "write", "append", "delete", "sleep", "limit", "content", "delay"}

// UnmarshalJSON decodes a step and works out its kind from the keys that
// are present, so that {"say": ""} prints an empty line. A malformed step
// is kept with its error for ParseScenario to report with its location.
func (s *Step) UnmarshalJSON(data []byte) error {
	*s = Step{}
	if err := s.decode(data); err != nil {
		s.err = err
	}
	return nil
}

func (s *Step) decode(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return errors.New("a step must be an object like {\"say\": \"...\"}")
	}
	var kinds []string
	for k := range raw {
		i := slices.Index(stepKeys, k)
		if i < 0 {
			return fmt.Errorf("unknown key %q in a step (known: %s)", k, strings.Join(stepKeys, ", "))
		}
		if i < 6 {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	switch len(kinds) {
	case 0:
		return errors.New("a step needs one of say, write, append, delete, sleep, limit")
	case 1:
	default:
		return fmt.Errorf("a step does one thing, this one has %s", strings.Join(kinds, " and "))
	}
	type plain Step // without the method, to decode the fields
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("step %s: %w", kinds[0], err)
	}
	*s = Step(p)
	s.Kind = kinds[0]
	if s.Kind == "limit" {
		if _, err := limitMessage(s.Limit); err != nil {
			return err
		}
	}
	return nil
}

// Path is the file the step changes ("" for say and sleep).
func (s Step) Path() string {
	switch s.Kind {
	case "write":
		return s.Write
	case "append":
		return s.Append
	case "delete":
		return s.Delete
	}
	return ""
}

// LoadScenario reads and checks a scenario file.
func LoadScenario(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the scenario: %w", err)
	}
	sc, err := ParseScenario(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sc, nil
}

// ParseScenario decodes and checks a scenario; phase keys come back
// normalized.
func ParseScenario(data []byte) (*Scenario, error) {
	var sc Scenario
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, jsonError(data, err)
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value: a scenario is one object")
	}
	if sc.Default != nil {
		if err := sc.Default.check(); err != nil {
			return nil, fmt.Errorf("default: %w", err)
		}
	}
	phases := make(map[phaseid.ID][]Attempt, len(sc.Phases))
	for key, attempts := range sc.Phases {
		id := plan.NormalizeID(string(key))
		if id == "" {
			return nil, fmt.Errorf("phases: %q is not a phase id", key)
		}
		if _, dup := phases[id]; dup {
			return nil, fmt.Errorf("phases: phase %q is listed twice", id)
		}
		if len(attempts) == 0 {
			return nil, fmt.Errorf("phases[%q]: no attempts: give at least one, or leave the phase out to play the default", key)
		}
		for i := range attempts {
			if err := attempts[i].check(); err != nil {
				return nil, fmt.Errorf("phases[%q][%d] (attempt %d): %w", key, i, i+1, err)
			}
		}
		phases[id] = attempts
	}
	sc.Phases = phases
	return &sc, nil
}

// check validates an attempt.
func (a *Attempt) check() error {
	if a.Exit < 0 || a.Exit > 255 {
		return fmt.Errorf("exit %d: an exit status is 0 to 255", a.Exit)
	}
	for i, s := range a.Steps {
		if err := s.check(); err != nil {
			return fmt.Errorf("steps[%d]: %w", i, err)
		}
	}
	return nil
}

// check validates a step decoded from JSON.
func (s Step) check() error {
	if s.err != nil {
		return s.err
	}
	if s.Kind == "" {
		return errors.New("a step needs one of say, write, append, delete, sleep, limit")
	}
	if s.Content != "" && s.Kind != "write" && s.Kind != "append" {
		return fmt.Errorf("content belongs to write and append, not %s", s.Kind)
	}
	if _, err := parseDelay(s.Delay); err != nil {
		return fmt.Errorf("delay: %w", err)
	}
	if s.Kind == "sleep" {
		if _, err := parseDelay(s.Sleep); err != nil {
			return fmt.Errorf("sleep: %w", err)
		}
	}
	if p := s.Path(); s.Kind != "say" && s.Kind != "sleep" && s.Kind != "limit" {
		if err := checkPath(p); err != nil {
			return fmt.Errorf("%s: %w", s.Kind, err)
		}
	}
	return nil
}

// parseDelay parses a step's duration ("" is none).
func parseDelay(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration like 150ms or 2s", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}

// checkPath rejects paths that would leave the worktree.
func checkPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case filepath.IsAbs(p) || strings.HasPrefix(p, "/"):
		return fmt.Errorf("path %q is absolute: paths are relative to the worktree", p)
	}
	clean := filepath.Clean(p)
	if clean == "." {
		return fmt.Errorf("path %q is the worktree itself", p)
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." {
			return fmt.Errorf("path %q leaves the worktree", p)
		}
	}
	return nil
}

// jsonError says where in the file a decoding error is.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("line %d: %w", lineOf(data, syn.Offset), err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("line %d: %s must be %s, not a JSON %s", lineOf(data, typ.Offset), typ.Field, agent.JSONKind(typ.Type), typ.Value)
	}
	if errors.Is(err, io.EOF) {
		return errors.New("empty scenario: expected a JSON object")
	}
	return err
}

func lineOf(data []byte, offset int64) int {
	return 1 + strings.Count(string(data[:min(int(offset), len(data))]), "\n")
}
