package prompts

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// Guidance is the retry guidance a prompt gives for a failure: what to fix
// and how, specific to the failure's type and filled in with the report's
// gate command, failing tests and files (after the seeds' "Retry guidance").
func Guidance(r failreport.Report) string {
	cmd := func(fallback string) string {
		if r.GateCommand == "" {
			return fallback
		}
		return "`" + r.GateCommand + "`"
	}
	switch r.Type {
	case failreport.IntegrationConflict:
		return failure.RetryGuidance(r.Type)
	case failreport.TestFailure:
		s := "Fix the failing tests"
		if len(r.FailingTests) > 0 {
			s += " (" + strings.Join(first(r.FailingTests, 8), ", ") + ")"
		}
		s += "."
		if files := filesIn(r.GateOutput); len(files) > 0 {
			s += " The errors are in " + strings.Join(files, ", ") + "."
		}
		return s + " Common issues: incorrect assertions, missing mocks, async timing. Decide whether the test or the code is wrong before changing either, and do not delete or weaken a test to make it pass. Run " + cmd("the tests") + " before you finish."
	case failreport.LintError:
		s := "Fix the linting errors. Run " + cmd("the linter") + " to see the current errors."
		if fix := lintFix(r.GateCommand); fix != "" {
			s += " Most are fixed automatically by `" + fix + "`."
		}
		return s
	case failreport.TypecheckError:
		s := "Fix the type and build errors. Run " + cmd("the build or type check") + " to see the current errors, and check that function signatures match their use."
		if r.Gate != "" && r.Gate != "build" && r.Gate != "typecheck" {
			// A test (or lint) gate that printed compile errors: its own
			// checks never ran, and more tests are no cure.
			s = "The build is broken: the code does not compile, so the " + r.Gate + " gate's checks never ran. Fix the build errors first, then run " + cmd("the gate") + " until it builds and its checks pass. Check that function signatures and imports match their use."
		}
		if files := filesIn(r.GateOutput); len(files) > 0 {
			s += " The errors are in " + strings.Join(files, ", ") + "."
		}
		return s
	case failreport.FormatError:
		s := "Format the files you changed"
		if fix := formatFix(r.GateCommand); fix != "" {
			s += " (`" + fix + "`)"
		}
		return s + ", then run " + cmd("the format check") + " to confirm."
	case failreport.TaskIncomplete:
		s := "The previous attempt did not finish every task"
		if len(r.WorkCompleted) > 0 {
			s += " (" + strings.Join(r.WorkCompleted, "; ") + ")"
		}
		return s + ". Its work is in this directory: do the remaining tasks without redoing the finished ones, and report the true task counts."
	case failreport.VerificationMismatch:
		s := "The previous attempt reported success but verification failed"
		if r.GateCommand != "" {
			s += " (" + cmd("") + " failed)"
		}
		if len(r.FilesChanged) == 0 {
			s += ", and it changed no file: the phase's work is still to be done. Do the phase's tasks in this directory"
		}
		return s + ". Run ALL quality gates after EVERY change, and make sure they pass at the end, not just during development."
	case failreport.Timeout:
		return "The previous attempt timed out. Focus on completing the tasks efficiently. If tests are slow, run targeted tests while you work and the full gates once at the end. Do not start commands that wait for input or never exit (watch modes, servers)."
	case failreport.ParseError:
		return "The previous attempt's result object was missing or unreadable. End your output with exactly one result object in a fenced json block, as described above, and print nothing after it."
	case failreport.RateLimited:
		return "The previous attempt was stopped by the model provider's rate limit, not by a problem in the code. Continue the work from where it stopped."
	case failreport.ContextExhausted:
		return "The previous attempt ran out of context. Its work is in this directory: continue from there. Read only the files you need, and keep command output short (pipe long output through tail)."
	case failreport.AgentError:
		return "The previous attempt failed. Find the cause in the report above, fix it, and finish the phase."
	}
	return fmt.Sprintf("The previous attempt failed with %s. Read the report above, fix its cause, and finish the phase.", orType(r.Type))
}

func orType(t failreport.Type) string {
	if t == "" {
		return "an error"
	}
	return string(t)
}

// fileRef matches "path/file.ext:12" in compiler and test output.
var fileRef = lazyre.New(`(?:^|[\s(])((?:[\w.-]+/)*[\w-][\w.-]*\.[A-Za-z]\w*):\d+`)

// filesIn returns the files an output's error lines point at, in order of
// appearance, without duplicates, at most five.
func filesIn(output string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range fileRef().FindAllStringSubmatch(output, -1) {
		f := strings.TrimPrefix(m[1], "./")
		if seen[f] {
			continue
		}
		seen[f] = true
		if out = append(out, f); len(out) == 5 {
			break
		}
	}
	return out
}

// lintFix returns the command that applies a linter's automatic fixes, for
// the linters that have them, or "".
func lintFix(cmd string) string {
	switch {
	case cmd == "":
		return ""
	case strings.Contains(cmd, "ruff check"), strings.Contains(cmd, "golangci-lint"), strings.Contains(cmd, "eslint"), strings.Contains(cmd, "biome lint"):
		if strings.Contains(cmd, "--fix") {
			return ""
		}
		return cmd + " --fix"
	case strings.HasPrefix(cmd, "cargo clippy"):
		return "cargo clippy --fix --allow-dirty"
	}
	return ""
}

// formatFix returns the command that formats what a format check rejects,
// for the formatters it knows, or "".
func formatFix(cmd string) string {
	switch {
	case strings.Contains(cmd, "gofmt"):
		return "gofmt -w ."
	case strings.Contains(cmd, "prettier") && strings.Contains(cmd, "--check"):
		return strings.Replace(cmd, "--check", "--write", 1)
	case strings.Contains(cmd, " --check"):
		return strings.Replace(cmd, " --check", "", 1)
	}
	return ""
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
