package failure

import (
	"fmt"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"regexp"
)

// Where a Pattern looks (Pattern.In).
const (
	InOutput = "output" // the agent's output (and its result's error message)
	InGate   = "gate"   // the failing gate's output
	InAny    = "any"    // both
)

// Pattern is one row of the classification table: output matching Match is
// evidence of a failure of Type. Users add rows in autobuild.toml; their rows
// are tried before the built-in ones. Rows are consulted at the step of the
// classifier's priority order that handles their type (see Classify).
type Pattern struct {
	Type failreport.Type `json:"type" toml:"type"`
	// Match is a regular expression (RE2 syntax), matched case-insensitively.
	Match string `json:"match" toml:"match"`
	// In is InOutput, InGate or InAny; empty means InAny.
	In string `json:"in,omitempty" toml:"in"`
}

// defaultPatterns is the built-in table. Sources: docs/failures.md and the failure
// classifications of the seeds (BROKEN_BUILD, VERIFICATION_FAILED,
// CONTEXT_EXHAUSTED, API rate limit, missing dependency).
var defaultPatterns = []Pattern{
	// A command that is not installed: sh, bash, zsh, Go's os/exec, env.
	{failreport.DependencyMissing, `command not found`, InAny},
	{failreport.DependencyMissing, `executable file not found`, InAny},
	{failreport.DependencyMissing, `(?m):\s*not found\s*$`, InAny},
	{failreport.DependencyMissing, `env: '?[^\s':]+'?: no such file or directory`, InAny},
	{failreport.DependencyMissing, `no module named`, InGate},

	// The model provider refused: back off and try again.
	{failreport.RateLimited, `rate[ _-]?limit`, InOutput},
	{failreport.RateLimited, `too many requests`, InOutput},
	{failreport.RateLimited, `overloaded`, InOutput},
	{failreport.RateLimited, `(?:status|code|error|http|api)[^\n]{0,12}\b429\b`, InOutput},
	// A subscription's usage limit (claude's "You've hit your 5-hour limit ·
	// resets 10:10pm (UTC)", codex's "You've hit your usage limit"): waited out
	// until its reset when that is near (see ReadLimit).
	{failreport.RateLimited, `usage limit|hit your (?:[\w-]+ )?limit`, InOutput},
	// codex's 5xx "We're currently experiencing high demand": an overload.
	{failreport.RateLimited, `experiencing high demand`, InOutput},

	// The model ran out of context.
	{failreport.ContextExhausted, `context[ _-]length`, InOutput},
	{failreport.ContextExhausted, `context window`, InOutput},
	{failreport.ContextExhausted, `token limit`, InOutput},
	{failreport.ContextExhausted, `maximum context`, InOutput},
	{failreport.ContextExhausted, `prompt is too long`, InOutput},
	// gemini: "The input token count (1200000) exceeds the maximum number
	// of tokens allowed (1048576)".
	{failreport.ContextExhausted, `input token count[^\n]{0,40}exceeds the maximum number of tokens`, InOutput},

	// The code does not build (the seeds' BROKEN_BUILD).
	{failreport.TypecheckError, `syntax ?error`, InOutput},
	{failreport.TypecheckError, `compilation (?:error|failed)`, InOutput},
	{failreport.TypecheckError, `\berror TS\d+:`, InOutput},
	{failreport.TypecheckError, `cannot find module`, InOutput},
	{failreport.TypecheckError, `module[ _]?not[ _]?found`, InOutput},
	{failreport.TypecheckError, `unexpected token`, InOutput},
	{failreport.TypecheckError, `indentation ?error`, InOutput},
	{failreport.TypecheckError, `import ?error`, InOutput},
	{failreport.TypecheckError, `\berror\[E\d{4}\]`, InOutput},

	// The code builds but tests fail (the seeds' VERIFICATION_FAILED).
	{failreport.TestFailure, `(?m)^\s*--- FAIL: `, InOutput},
	{failreport.TestFailure, `(?m)^FAILED \S+::`, InOutput},
	{failreport.TestFailure, `assertion ?error`, InOutput},
	{failreport.TestFailure, `\btests? failed\b`, InOutput},
}

// DefaultPatterns returns a copy of the built-in classification table.
func DefaultPatterns() []Pattern {
	return append([]Pattern(nil), defaultPatterns...)
}

// rule is a compiled Pattern.
type rule struct {
	Pattern
	re *regexp.Regexp
}

// compile checks and compiles one pattern.
func compile(p Pattern) (rule, error) {
	if !known(p.Type) {
		return rule{}, fmt.Errorf("failure pattern %q: unknown failure type %q", p.Match, p.Type)
	}
	switch p.In {
	case "":
		p.In = InAny
	case InOutput, InGate, InAny:
	default:
		return rule{}, fmt.Errorf("failure pattern %q: in must be %q, %q or %q, not %q", p.Match, InOutput, InGate, InAny, p.In)
	}
	if p.Match == "" {
		return rule{}, fmt.Errorf("failure pattern of type %s: empty match", p.Type)
	}
	re, err := regexp.Compile("(?i)" + p.Match)
	if err != nil {
		return rule{}, fmt.Errorf("failure pattern %q: %w", p.Match, err)
	}
	return rule{Pattern: p, re: re}, nil
}

// appliesTo reports whether the rule looks in the given place.
func (r rule) appliesTo(in string) bool { return r.In == InAny || r.In == in }

// known reports whether t is one of the types of docs/failures.md.
func known(t failreport.Type) bool {
	for _, k := range allTypes {
		if t == k {
			return true
		}
	}
	return false
}

// allTypes lists every failure type.
var allTypes = []failreport.Type{
	failreport.TestFailure, failreport.LintError, failreport.TypecheckError, failreport.FormatError, failreport.TaskIncomplete, failreport.VerificationMismatch, failreport.Timeout,
	failreport.ParseError, failreport.RateLimited, failreport.ContextExhausted, failreport.AgentError, failreport.DependencyMissing, failreport.CircularDependency,
	failreport.FileConflict, failreport.PlanInvalid, failreport.AgentSetup, failreport.IntegrationConflict,
}
