package failure

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/human"
)

// Classifier turns an attempt's Evidence into a Report, using the built-in
// pattern table plus the user's rows.
type Classifier struct {
	// rules are the user's rows, then the built-in ones; read-only after
	// NewClassifier, so a Classifier is safe for concurrent use.
	rules []rule
}

// NewClassifier compiles the classification table: extra rows (from
// autobuild.toml) first, so they take precedence, then DefaultPatterns. An
// invalid row (bad regexp, unknown type or place) is an error.
func NewClassifier(extra []Pattern) (*Classifier, error) {
	c := &Classifier{}
	for _, p := range append(append([]Pattern(nil), extra...), defaultPatterns...) {
		r, err := compile(p)
		if err != nil {
			return nil, err
		}
		c.rules = append(c.rules, r)
	}
	return c, nil
}

// match returns the first rule of type t that applies to in and matches
// text, with the matched line.
func (c *Classifier) match(text, in string, t failreport.Type) (matched, bool) {
	return c.matchWhere(text, in, func(rt failreport.Type) bool { return rt == t })
}

// matchExcept is match for every type but the given ones.
func (c *Classifier) matchExcept(text, in string, except ...failreport.Type) (matched, bool) {
	return c.matchWhere(text, in, func(rt failreport.Type) bool { return !contains(except, rt) })
}

func (c *Classifier) matchWhere(text, in string, keep func(failreport.Type) bool) (matched, bool) {
	for _, r := range c.rules {
		if !r.appliesTo(in) || !keep(r.Type) {
			continue
		}
		if loc := r.re.FindStringIndex(text); loc != nil {
			return matched{Type: r.Type, Line: lineAt(text, loc[0])}, true
		}
	}
	return matched{}, false
}

// matched is a rule that matched: its type and the line it matched in.
type matched struct {
	Type failreport.Type
	Line string
}

// signalTypes are the types steps 2-4 look for in the agent's output; step 9
// leaves them out, so they are only ever read from the output's end.
var signalTypes = []failreport.Type{failreport.DependencyMissing, failreport.RateLimited, failreport.ContextExhausted}

// Classify names the failure the evidence shows. The checks run in a fixed
// priority order; the first that applies decides the type:
//
//  1. the attempt timed out (TimedOut or IdleTimedOut): timeout.
//  2. the agent could not run (AgentNotFound, exit 127, or a missing-command
//     message ending its output): dependency_missing.
//     A failed agent whose own runtime says it cannot load the agent
//     itself (node's "Cannot find module '…/cli.js'", python's "No module
//     named 'aider'"): agent_setup, with the reinstall command.
//     2b. a preset agent CLI reported its failure itself (AgentSignal, read
//     by its adapter from its structured output first, its own words
//     second): that type (agent_setup with its fix, rate_limited,
//     context_exhausted, agent_error).
//  3. a rate-limit message ends the output of a failed agent: rate_limited.
//  4. a context message ends the output of a failed agent:
//     context_exhausted.
//  5. a gate failed: its own tool is missing (exit 127 or a missing-command
//     message naming it), or a third-party package its code imports is
//     (missingpkg.go: a package, not a file of the project):
//     dependency_missing; else the agent claimed
//     complete, or exited 0 having changed no file: verification_mismatch;
//     else a gate-output row of the table; else code that did not compile
//     before the gate's checks ran (compile.go; not a lint gate's lints
//     made errors, as clippy's -D warnings): typecheck_error; else by
//     the gate's kind: test → test_failure, lint → lint_error, build and
//     typecheck → typecheck_error, format → format_error.
//  6. a result object was required but is missing or unreadable, or a
//     result object names another phase, and the agent exited 0:
//     parse_error.
//  7. the result says failed with a known error type: that type.
//  8. the result counts fewer completed tasks than tasks: task_incomplete.
//  9. the agent exited non-zero: the first output row of the table that
//     matches, else agent_error.
//
// Anything else (the agent reported failure without a usable type, say) is
// agent_error. Classify also fills the report's excerpt, failing tests,
// work completed, what the failure is blocked on and SuggestedActions.
func (c *Classifier) Classify(ev Evidence) failreport.Report {
	ev.AgentOutput = clean(ev.AgentOutput)
	if ev.Gate != nil {
		g := *ev.Gate
		g.Output = clean(g.Output)
		ev.Gate = &g
	}
	r := c.classify(ev)
	r.Message, r.BlockedOn = relativeTo(ev.Worktree, r.Message), relativeTo(ev.Worktree, r.BlockedOn)
	r.Retryable = r.Type.Retryable()
	r.Attempt = ev.Attempt
	r.DurationSeconds = math.Round(ev.Duration.Seconds()*1000) / 1000
	r.FilesChanged = append([]string(nil), ev.FilesChanged...)
	r.WorkCompleted = workCompleted(ev)
	if g := ev.Gate; g != nil {
		r.Gate, r.GateCommand, r.GateOutput = g.Kind, g.Command, Excerpt(g.Output)
	}
	r.SuggestedActions = suggest(r, ev.Worktree)
	return r
}

func (c *Classifier) classify(ev Evidence) failreport.Report {
	failed := ev.AgentNotFound || ev.AgentExitCode != 0 || ev.ResultStatus == "failed"
	signals := clip.Tail(ev.AgentOutput, signalTailLines)
	if ev.ResultErrorMessage != "" {
		signals += "\n" + ev.ResultErrorMessage
	}

	// 1. Timeout.
	if ev.TimedOut || ev.IdleTimedOut {
		return timeoutReport(ev)
	}
	// 2. The agent itself is not installed.
	if r, ok := c.agentMissing(ev, failed); ok {
		return r
	}
	// The agent's own installation is broken: it never started.
	if ev.AgentExitCode != 0 {
		if line, cli, ok := brokenAgentInstall(signals, ev.AgentCommand); ok {
			return agentInstallReport(ev, line, cli)
		}
	}
	// 2b. The agent CLI said what went wrong in its structured output.
	if r, ok := agentSignalReport(ev); ok {
		return r
	}
	// 3 and 4. The model provider stopped the agent.
	if failed {
		if m, ok := c.match(signals, InOutput, failreport.RateLimited); ok {
			return failreport.Report{Type: failreport.RateLimited, Message: "rate limited by the model provider: " + m.Line,
				BlockedOn: "the model provider's rate limit"}
		}
		if m, ok := c.match(signals, InOutput, failreport.ContextExhausted); ok {
			return failreport.Report{Type: failreport.ContextExhausted, Message: "the agent ran out of context: " + m.Line,
				BlockedOn: "the model's context window"}
		}
	}
	// 5. A gate failed in the engine's own run.
	if ev.Gate != nil {
		return c.gateReport(ev)
	}
	// 6. A preset agent's result object is missing or garbled. An agent
	// that exited non-zero is judged by its output first (step 9): its
	// missing result is a symptom, not the cause.
	if ev.ResultRequired && ev.AgentExitCode == 0 && (!ev.ResultFound || ev.ResultParseErr != "") {
		if !ev.ResultFound {
			return failreport.Report{Type: failreport.ParseError, Message: "the agent printed no result object",
				Details: lastOutputDetails(ev.AgentOutput), BlockedOn: "no result object in the agent's output"}
		}
		return failreport.Report{Type: failreport.ParseError, Message: "the agent's result object is unreadable: " + shorten(ev.ResultParseErr),
			BlockedOn: "an unreadable result object"}
	}
	// A result object for another phase is the agent's confusion: its
	// claims (and its commit message) are not this phase's.
	if ev.ResultOtherPhase != "" && ev.AgentExitCode == 0 {
		return failreport.Report{Type: failreport.ParseError, Message: fmt.Sprintf("the agent's result object is for phase_id %q, not this phase: the agent may have lost track of its task", shorten(ev.ResultOtherPhase)),
			BlockedOn: "a result object for another phase"}
	}
	// 7. The agent said what went wrong.
	if ev.ResultStatus == "failed" {
		if t := failreport.Type(strings.ToLower(strings.TrimSpace(ev.ResultErrorType))); agentReportable(t) {
			return agentTypedReport(ev, t)
		}
	}
	// 8. Work left undone.
	if ev.TasksTotal > 0 && ev.TasksCompleted < ev.TasksTotal {
		left := ev.TasksTotal - ev.TasksCompleted
		return failreport.Report{Type: failreport.TaskIncomplete,
			Message:   fmt.Sprintf("task incomplete: %d of %d tasks done", ev.TasksCompleted, ev.TasksTotal),
			BlockedOn: fmt.Sprintf("%d %s not done", left, human.Plural(left, "task", "tasks"))}
	}
	// 9. The agent failed: what does its output say?
	if ev.AgentExitCode != 0 {
		text := ev.AgentOutput
		if ev.ResultErrorMessage != "" {
			text += "\n" + ev.ResultErrorMessage
		}
		msg := fmt.Sprintf("agent exited with status %d", ev.AgentExitCode)
		if m, ok := c.matchExcept(text, InOutput, signalTypes...); ok {
			rep := failreport.Report{Type: m.Type, Message: msg + ": " + m.Line, BlockedOn: m.Line}
			if m.Type == failreport.TestFailure {
				rep.FailingTests = FailingTests(text)
			}
			return rep
		}
		return failreport.Report{Type: failreport.AgentError, Message: msg, Details: lastOutputDetails(ev.AgentOutput),
			BlockedOn: ev.blockedOnFromAgent()}
	}
	if ev.ResultStatus == "failed" {
		msg := "the agent reported failure"
		if ev.ResultErrorMessage != "" {
			msg += ": " + shorten(ev.ResultErrorMessage)
		}
		return failreport.Report{Type: failreport.AgentError, Message: msg, BlockedOn: ev.blockedOnFromAgent()}
	}
	return failreport.Report{Type: failreport.AgentError, Message: "the attempt failed without a recognizable cause",
		Details: lastOutputDetails(ev.AgentOutput)}
}

// agentMissing is step 2. A missing-command message counts when it names
// the agent's own program, or when it is one of the last three lines of a
// failed agent's output; earlier ones are usually a tool the agent tried.
func (c *Classifier) agentMissing(ev Evidence, failed bool) (failreport.Report, bool) {
	agentProg := program(ev.AgentCommand)
	tool := ""
	switch {
	case ev.AgentNotFound || ev.AgentExitCode == 127:
		tool = MissingTool(clip.Tail(ev.AgentOutput, signalTailLines))
		if tool == "" {
			tool = agentProg
		}
	case failed:
		named := MissingTool(clip.Tail(ev.AgentOutput, signalTailLines))
		if named == "" {
			return failreport.Report{}, false
		}
		lines := nonEmptyLines(ev.AgentOutput)
		end := strings.Join(lines[max(0, len(lines)-3):], "\n")
		if named != agentProg && MissingTool(end) != named {
			return failreport.Report{}, false
		}
		if _, ok := c.match(clip.Tail(ev.AgentOutput, signalTailLines), InOutput, failreport.DependencyMissing); !ok {
			return failreport.Report{}, false
		}
		tool = named
	default:
		return failreport.Report{}, false
	}
	if tool == "" {
		tool = "the agent command"
	}
	msg := tool + " not found"
	if ev.AgentExitCode == 127 {
		msg += " (exit 127)"
	}
	details := ""
	if ev.AgentCommand != "" {
		details = "the agent command `" + ev.AgentCommand + "` could not run"
	}
	return failreport.Report{Type: failreport.DependencyMissing, Message: msg, Details: details, MissingTool: tool,
		BlockedOn: tool + " is not installed"}, true
}

// gateReport is step 5.
func (c *Classifier) gateReport(ev Evidence) failreport.Report {
	g := ev.Gate
	kind := g.Kind
	if kind == "" {
		kind = "quality"
	}
	if tool, ok := c.gateTool(g); ok {
		msg := tool + " not found"
		if g.ExitCode == 127 {
			msg += " (exit 127)"
		}
		who := "the " + kind + " gate"
		if g.Declared {
			who = "the declared " + kind + " gate"
		}
		return failreport.Report{Type: failreport.DependencyMissing, Message: msg, MissingTool: tool,
			Details:   fmt.Sprintf("%s `%s` needs %s, which is not installed", who, g.Command, tool),
			BlockedOn: tool + " is not installed"}
	}
	failing := FailingTests(g.Output)
	plain := gateSummary(kind, g, failing)
	if pkg, ok := findMissingPackage(g.Output, ev.FilesChanged); ok {
		return failreport.Report{Type: failreport.DependencyMissing, Message: plain + ": the " + pkg.eco + " package " + pkg.name + " is not installed",
			Details:   "a package, not a file of the project: no change to the code under test installs it",
			BlockedOn: pkg.name + " is not installed", Fix: pkg.installCommand()}
	}
	summary := plain
	blocked := blockerLine(g.Output)
	_, broken := brokenBuild(g.Output)
	if broken && gateType(kind) == failreport.LintError && lintOnly(g.Output) {
		// cargo clippy -D warnings: lints made errors end with "could not
		// compile", but the code compiled; the linter refused it.
		broken = false
	}
	switch {
	case broken:
		summary = brokenBuildSummary(kind, g, failing)
	case len(failing) > 0:
		blocked = "failing tests: " + listNames(failing, 5) + panicNote(g.Output)
	}
	rep := failreport.Report{FailingTests: failing, BlockedOn: blocked}
	switch {
	case ev.ResultStatus == "complete":
		rep.Type = failreport.VerificationMismatch
		rep.Message = "agent reported complete, but " + summary
		rep.Details = fmt.Sprintf("the engine's own run of `%s` failed (exit %d) after the agent claimed success", g.Command, g.ExitCode)
		if len(ev.FilesChanged) == 0 {
			rep.Details += "; the agent changed no file"
		}
	case zeroExitWithoutChange(ev):
		rep.Type = failreport.VerificationMismatch
		rep.Message = "the agent exited 0 without changing any file, but " + summary
		rep.Details = zeroExitDetails(g)
	default:
		if m, ok := c.matchExcept(g.Output, InGate, failreport.DependencyMissing); ok {
			rep.Type = m.Type
			rep.Message = plain + ": " + m.Line
		} else if broken && gateType(kind) != failreport.TypecheckError {
			rep.Type = failreport.TypecheckError
			rep.Message = summary + ": " + blocked
		} else {
			rep.Type = gateType(kind)
			rep.Message = summary
		}
	}
	return rep
}

// gateSummary is "test gate failed: 2 tests failing (TestAdd, TestSub)" or
// "lint gate failed (exit 1)".
func gateSummary(kind string, g *GateEvidence, failing []string) string {
	if len(failing) > 0 {
		return fmt.Sprintf("%s gate failed: %d %s failing (%s)", kind, len(failing),
			human.Plural(len(failing), "test", "tests"), listNames(failing, 5))
	}
	return fmt.Sprintf("%s gate failed (exit %d)", kind, g.ExitCode)
}

// gateKindTypes is the classification table's first column: the failure
// type of a failed gate of each kind, when no pattern row says more. A gate
// of a kind not listed here fails as agent_error.
var gateKindTypes = map[string]failreport.Type{
	"test":      failreport.TestFailure,
	"lint":      failreport.LintError,
	"build":     failreport.TypecheckError,
	"typecheck": failreport.TypecheckError,
	"format":    failreport.FormatError,
}

// gateType maps a gate's kind to the failure type of its failure.
func gateType(kind string) failreport.Type {
	if t, ok := gateKindTypes[kind]; ok {
		return t
	}
	return failreport.AgentError
}

// agentReportable reports whether an agent may name t as its error type.
// The plan and integration failures are the engine's to find, never the
// agent's.
func agentReportable(t failreport.Type) bool {
	switch t {
	case failreport.CircularDependency, failreport.FileConflict, failreport.PlanInvalid, failreport.IntegrationConflict:
		return false
	}
	return known(t)
}

// agentTypedReport is step 7: the agent's result says failed, with a type.
func agentTypedReport(ev Evidence, t failreport.Type) failreport.Report {
	msg := strings.TrimSpace(ev.ResultErrorMessage)
	if msg == "" {
		msg = "the agent reported " + string(t)
	}
	rep := failreport.Report{Type: t, Message: shorten(msg), BlockedOn: shorten(msg)}
	switch t {
	case failreport.DependencyMissing:
		rep.MissingTool = MissingTool(ev.ResultErrorMessage + "\n" + ev.AgentOutput)
	case failreport.TestFailure:
		rep.FailingTests = FailingTests(ev.AgentOutput)
	}
	return rep
}

// timeoutReport is step 1. A gate that was still running when the time
// ran out is named: it is the command that hangs or is too slow.
func timeoutReport(ev Evidence) failreport.Report {
	d := ev.Duration.Round(time.Second)
	rep := failreport.Report{Type: failreport.Timeout, Message: fmt.Sprintf("timed out after %s", d), BlockedOn: fmt.Sprintf("the time limit (%s)", d),
		Details: lastOutputDetails(ev.AgentOutput)}
	switch {
	case ev.IdleTimedOut && !ev.TimedOut:
		rep.Message = fmt.Sprintf("timed out after %s: no output for the idle limit", d)
		rep.BlockedOn = "no output for the idle limit"
	case ev.Gate != nil:
		rep.Message = fmt.Sprintf("timed out after %s: the %s gate `%s` was still running", d, orQuality(ev.Gate.Kind), ev.Gate.Command)
		rep.Details = lastOutputDetails(ev.Gate.Output)
	default:
		rep.Message = fmt.Sprintf("timed out after %s: no time was left to run the gates", d)
	}
	return rep
}

func orQuality(kind string) string {
	if kind == "" {
		return "quality"
	}
	return kind
}

// workCompleted lists what the attempt got done before it failed.
func workCompleted(ev Evidence) []string {
	var out []string
	if ev.TasksTotal > 0 && ev.TasksCompleted > 0 {
		out = append(out, fmt.Sprintf("%d/%d tasks", ev.TasksCompleted, ev.TasksTotal))
	}
	if n := len(ev.FilesChanged); n > 0 {
		out = append(out, fmt.Sprintf("changed %d %s", n, human.Plural(n, "file", "files")))
	}
	return out
}

func (ev Evidence) blockedOnFromAgent() string {
	if ev.ResultErrorMessage != "" {
		return shorten(strings.TrimSpace(ev.ResultErrorMessage))
	}
	return blockerLine(clip.Tail(ev.AgentOutput, signalTailLines))
}

func lastOutputDetails(output string) string {
	if l := lastLine(output); l != "" {
		return "last output: " + l
	}
	return ""
}

// listNames joins up to n names, with "…" for the rest.
func listNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + ", …"
}

func contains(ts []failreport.Type, t failreport.Type) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}
