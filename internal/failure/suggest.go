package failure

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/shell"
)

// installHints are the install commands of tools autobuild users commonly
// miss: gate tools. The agent CLIs' come from their presets' rows
// (package preset).
var installHints = map[string]string{
	"go":            "install Go: https://go.dev/dl/",
	"gofmt":         "install Go (gofmt comes with it): https://go.dev/dl/",
	"node":          "install Node.js (it brings npm and npx): https://nodejs.org/",
	"npm":           "install Node.js (it brings npm and npx): https://nodejs.org/",
	"npx":           "install Node.js (it brings npm and npx): https://nodejs.org/",
	"yarn":          "install yarn: corepack enable (or npm install -g yarn)",
	"pnpm":          "install pnpm: corepack enable (or npm install -g pnpm)",
	"tsc":           "install TypeScript: npm install --save-dev typescript",
	"eslint":        "install ESLint: npm install --save-dev eslint",
	"prettier":      "install Prettier: npm install --save-dev prettier",
	"jest":          "install Jest: npm install --save-dev jest",
	"vitest":        "install Vitest: npm install --save-dev vitest",
	"python":        "install Python 3: https://www.python.org/downloads/",
	"python3":       "install Python 3: https://www.python.org/downloads/",
	"pip":           "install pip: python3 -m ensurepip --upgrade",
	"pytest":        "install pytest: pip install pytest",
	"ruff":          "install Ruff: pip install ruff (or pipx install ruff)",
	"black":         "install Black: pip install black",
	"mypy":          "install mypy: pip install mypy",
	"uv":            "install uv: pipx install uv (or see https://docs.astral.sh/uv/)",
	"cargo":         "install Rust with rustup: https://rustup.rs/",
	"rustc":         "install Rust with rustup: https://rustup.rs/",
	"golangci-lint": "install golangci-lint: go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest",
	"staticcheck":   "install staticcheck: go install honnef.co/go/tools/cmd/staticcheck@latest",
	"make":          "install make with your system's package manager (e.g. apt-get install make)",
	"git":           "install git: https://git-scm.com/downloads",
}

// InstallHint returns how to install tool: a known tool's install command,
// else the generic advice.
func InstallHint(tool string) string {
	if h, ok := installHints[strings.ToLower(tool)]; ok {
		return h
	}
	for _, in := range preset.Programs() {
		if in.Program == strings.ToLower(tool) {
			return "install " + in.Title + ": " + in.Command
		}
	}
	if tool == "" {
		return "install the missing command and make sure it is on PATH"
	}
	return "install " + tool + " and make sure it is on PATH"
}

// Suggest returns recovery actions specific to the report's type (docs/failures.md),
// most useful first. Classify calls it; code that builds a Report by hand
// (a file conflict, say) calls it too.
func Suggest(r failreport.Report) []string { return suggest(r, "") }

// suggest is Suggest with the phase's worktree, when known: a gate the
// agent's claim missed fails there, not in your checkout, which does not
// have the phase's work yet.
func suggest(r failreport.Report, worktree string) []string {
	var out []string
	if r.Circular {
		out = append(out, "the same fix was tried again: read the attempts' logs and fix the cause by hand, then resume")
	}
	run := func(what string) string {
		if r.GateCommand == "" {
			return what
		}
		return what + ": " + r.GateCommand
	}
	switch r.Type {
	case failreport.TestFailure:
		if len(r.FailingTests) > 0 {
			out = append(out, "fix the failing tests: "+listNames(r.FailingTests, 5))
		}
		out = append(out, run("run the tests in the phase's worktree to see the failures"),
			"check whether the tests or the implementation hold the wrong assumption")
	case failreport.LintError:
		out = append(out, run("run the linter and fix what it reports"),
			"apply the linter's automatic fixes where it has them")
	case failreport.TypecheckError:
		out = append(out, run("run the build or type check and fix the errors"),
			"check that function signatures and imports match their use")
	case failreport.FormatError:
		if fix := formatterFix(r.GateCommand); fix != "" {
			out = append(out, "run the formatter: "+fix)
		} else {
			out = append(out, "run the formatter on the changed files")
			if r.GateCommand != "" {
				out = append(out, "then check with the gate's command: "+r.GateCommand)
			}
		}
	case failreport.TaskIncomplete:
		out = append(out, "finish the remaining tasks of the phase, or resume to let the agent continue",
			"split the phase into smaller phases if it does not fit in one attempt")
	case failreport.VerificationMismatch:
		missed := run("run the gate the agent's claim missed")
		if worktree != "" && r.GateCommand != "" {
			missed = "run the gate the agent's claim missed in the phase's worktree, where it fails (your checkout does not have the phase's work): cd " +
				shell.Quote(shownWorktree(worktree)) + " && " + r.GateCommand
		}
		out = append(out, missed,
			"make sure the agent runs every quality gate after its last change")
		if len(r.FilesChanged) == 0 {
			out = append(out, "the agent changed no file: check in the attempt log that it got the task and worked in the phase's worktree")
		}
	case failreport.Timeout:
		out = append(out, "raise --phase-timeout (a retry already gets twice the time)",
			"split the phase into smaller phases",
			"check the attempt log for a command that hangs (a watch mode, a prompt)")
	case failreport.ParseError:
		out = append(out, "check the attempt log: the agent must end its output with the result object (a fenced json block)",
			"update the agent CLI, or use it as a plain --agent command, which is judged by exit code and gates")
	case failreport.RateLimited:
		out = append(out, "wait for the provider's rate limit to reset, then resume",
			"lower --max-parallel, or add another --agent to alternate with")
	case failreport.ContextExhausted:
		out = append(out, "resume: the retry continues from the work already in the worktree",
			"split the phase into smaller phases")
	case failreport.AgentError:
		out = append(out, "read the attempt log for the agent's error",
			"run the agent command by hand in the repository to check that it works")
	case failreport.DependencyMissing:
		if r.Fix != "" { // a package the code imports
			out = append(out, r.Fix, "then resume with --resume")
			break
		}
		out = append(out, InstallHint(r.MissingTool))
		if r.MissingTool != "" {
			out = append(out, fmt.Sprintf("check it is found: command -v %s", r.MissingTool))
		}
		out = append(out, "then resume with --resume")
	case failreport.CircularDependency:
		out = append(out, "fix the plan's Depends On column so the dependencies form no cycle",
			"check it with: autobuild validate PLAN.md")
	case failreport.FileConflict:
		out = append(out, "resume: the phase runs again from the start, on top of the work that landed first (its conflicting attempt is kept as a .diff in .autobuild/logs/)",
			"or make the phases sequential in the plan (one Depends On the other), then resume",
			"or split the shared file so each phase changes its own file")
	case failreport.IntegrationConflict:
		out = append(out, "fix the combination by hand in your checkout (the phases named above each pass alone; the gate's output says where they meet), commit it, then resume with --resume",
			"or make the phases sequential in the plan (one Depends On the other), then resume",
			"or split the shared symbol (keep the old name beside the new one until every caller moved), then resume")
	case failreport.AgentSetup:
		if r.Fix != "" {
			out = append(out, r.Fix, "then resume with --resume")
			break
		}
		out = append(out, "fix the agent's setup as the message says (log in, set its API key, reinstall it), check it by running the agent by hand in the repository",
			"then resume with --resume")
	case failreport.EnvironmentSetup:
		if r.Fix != "" {
			out = append(out, r.Fix)
		}
		out = append(out, "then resume with --resume: the phase starts again in a new worktree, with its full attempts")
	case failreport.BudgetExceeded:
		out = append(out, "look at the spend per phase: a phase that cost far more than the others may be looping",
			"resume with a higher budget (--max-cost, or --max-phase-cost for one phase's), or split the costly phase")
	case failreport.RedBase:
		out = append(out, "fix the base first: the quality gates already fail on your branch before the run "+
			"(their output is in .autobuild/logs/verify.log), so commit a fix there before you resume; "+
			"or, to go on with the base as it is, resume with --allow-red-base (a gate then counts only the failures the base does not have)")
	case failreport.ReviewRejected:
		out = append(out, "the retry gets the reviewer's note as its context; after a second rejection, change the phase's text in the plan or do the change by hand, then resume")
	case failreport.PlanInvalid:
		out = append(out, "fix the plan at the reported line",
			"check it with: autobuild validate PLAN.md")
	default:
		out = append(out, "read the attempt log, fix the cause, then resume")
	}
	return out
}

// formatterFix turns a format gate's check command into the command that
// fixes the formatting, for the formatters it knows; "" otherwise.
func formatterFix(check string) string {
	words := strings.Fields(check)
	if len(words) == 0 {
		return ""
	}
	replace := func(from, to string) string {
		var out []string
		for _, w := range words {
			switch {
			case w == from && to != "":
				out = append(out, to)
			case w == from:
			default:
				out = append(out, w)
			}
		}
		return strings.Join(out, " ")
	}
	has := func(w string) bool {
		for _, x := range words {
			if x == w {
				return true
			}
		}
		return false
	}
	switch {
	case program(check) == "gofmt" && has("-l"):
		return replace("-l", "-w")
	case has("--check") && (strings.Contains(check, "prettier") || strings.Contains(check, "biome")):
		return replace("--check", "--write")
	case has("--check"): // ruff format, black, cargo fmt, dprint
		return replace("--check", "")
	case has("--verify-no-changes"): // dotnet format
		return replace("--verify-no-changes", "")
	}
	return ""
}

// RetryGuidance returns the sentence the retry prompt gives the agent for a
// failure of type t (after the seeds' "Retry guidance").
func RetryGuidance(t failreport.Type) string {
	switch t {
	case failreport.TestFailure:
		return "Fix the failing tests. Common issues: incorrect assertions, missing mocks, async timing. Run the test gate before you finish."
	case failreport.LintError:
		return "Fix the linting errors. Run the lint gate to see the current errors; many are fixed automatically by the linter's fix option."
	case failreport.TypecheckError:
		return "Fix the type and build errors. Run the build or type check gate to see them, and check that function signatures match their use."
	case failreport.FormatError:
		return "Run the formatter on the files you changed, then run the format gate to confirm."
	case failreport.TaskIncomplete:
		return "The previous attempt did not finish every task. Its work is in the worktree: do the remaining tasks without redoing finished ones."
	case failreport.VerificationMismatch:
		return "The previous attempt reported success but verification failed. Run ALL quality gates after EVERY change, and make sure they pass at the end, not just during development."
	case failreport.Timeout:
		return "The previous attempt timed out. Focus on completing the tasks efficiently; if tests are slow, run targeted tests while you work and the full gates once at the end."
	case failreport.ParseError:
		return "The previous attempt's result object was missing or unreadable. End your output with exactly one result object in a fenced json block, as described above."
	case failreport.RateLimited:
		return "The previous attempt was stopped by the model provider's rate limit, not by a problem in the code. Continue the work from where it stopped."
	case failreport.ContextExhausted:
		return "The previous attempt ran out of context. Its work is in the worktree: continue from there, read only the files you need, and keep output short."
	case failreport.IntegrationConflict:
		return "Your previous attempt passed the gates on its own, but not together with the work another phase landed meanwhile (named in the failure report above, with the gate's output). The worktree now holds that work with your change on top: make your change work with it, without undoing the other phase's change, then run all quality gates."
	case failreport.AgentError:
		return "The previous attempt failed. Read the failure report above, fix its cause, and finish the phase."
	}
	return "The previous attempt failed with " + string(t) + ", which a retry cannot fix; stop and report it."
}

// shownWorktree is the worktree as the halt summary shows it: from the
// repository's root (.autobuild/worktrees/phase-2b), where the resume
// commands run too; else as given.
func shownWorktree(dir string) string {
	slashed := filepath.ToSlash(dir)
	if i := strings.LastIndex(slashed, "/.autobuild/"); i >= 0 {
		return slashed[i+1:]
	}
	return dir
}
