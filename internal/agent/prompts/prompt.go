package prompts

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// Input is everything a phase attempt's prompt is made of.
type Input struct {
	PlanPath  string
	PlanTitle string
	Phase     *plan.Phase
	// Gates are the commands the engine runs after the agent exits, in order.
	Gates []plan.Gate
	// Siblings are the phases running alongside this one; Landed are the
	// phases of its batch that are already done (on a retry, those that
	// completed on their first attempt).
	Siblings []*plan.Phase
	Landed   []*plan.Phase
	// Eager is set under --schedule=eager, where there is no batch: Landed
	// are then the phases that ran alongside this one's first attempt.
	Eager       bool
	Attempt     int
	MaxAttempts int
	// Previous holds the reports of this phase's earlier failed attempts,
	// oldest first; the last one is the failure this attempt retries.
	Previous []failreport.Report
	// PreviousDiffPath is where the previous attempt's diff is kept ("" when
	// there is none).
	PreviousDiffPath string
	// Continues is set when the attempt runs in the worktree of an earlier
	// attempt of the same run, on top of its work: a retry, or the repeat of
	// a rate-limited attempt (which keeps its attempt number).
	Continues bool
}

// Build writes the markdown prompt of one phase attempt (docs/agents.md): who
// the agent is and what it works on, the phase's own section verbatim, the
// gates that decide when it is done, the phases running alongside it, the
// rules, the result object to end with and, on a retry, the failure it
// retries.
func Build(in Input) string {
	p := in.Phase
	if p == nil {
		p = &plan.Phase{}
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	w("# %s\n\n", p.Label())
	w("You are a coding agent run by autobuild. You work unattended on one phase of the plan %s", quoteTitle(in.PlanTitle))
	if in.PlanPath != "" {
		w(" (`%s`)", in.PlanPath)
	}
	w(": %s. Nobody is there to answer questions: make sensible decisions, do the whole phase, and report how it went.", p.Label())
	if in.Attempt > 0 && in.MaxAttempts > 0 {
		w(" This is attempt %d of %d.", in.Attempt, in.MaxAttempts)
	}
	w("\n\nYour working directory is a git worktree made for this phase; the phases it depends on are already done in it.\n\n")

	w("## Your phase\n\n%s\n\n", phaseSource(p))
	writeFenced(&b, "markdown", p.Body)

	writeGates(&b, in.Gates)
	writeSiblings(&b, in.Siblings, in.Landed, in.Eager)
	writeRules(&b, in.PlanPath)
	writeResultFormat(&b, p)
	if (in.Attempt > 1 || in.Continues) && len(in.Previous) > 0 {
		writeRetry(&b, in)
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func quoteTitle(title string) string {
	if title == "" {
		return "of this repository"
	}
	return fmt.Sprintf("%q", title)
}

func writeGates(b *strings.Builder, gates []plan.Gate) {
	b.WriteString("## You are done when these pass\n\n")
	if len(gates) == 0 {
		b.WriteString("No quality gates are configured: the phase is judged by your exit status and your result object. Still build and test what you change before you finish.\n\n")
		return
	}
	b.WriteString("After you exit, autobuild runs these commands itself in this directory, in this order. The phase is complete only when every one of them passes, whatever you report, so run them yourself before you finish:\n\n")
	for _, g := range gates {
		fmt.Fprintf(b, "- %s: `%s`\n", g.Kind, g.Command)
	}
	b.WriteString("\n")
}

func writeSiblings(b *strings.Builder, siblings, landed []*plan.Phase, eager bool) {
	if len(siblings)+len(landed) == 0 {
		return
	}
	b.WriteString("## Phases running alongside yours\n\n")
	if len(siblings) > 0 {
		b.WriteString("These phases run at the same time, each in its own worktree:\n\n")
		writePhaseList(b, siblings)
	}
	if len(landed) > 0 {
		if eager {
			b.WriteString("These phases ran alongside yours and are already done; their work is merged with yours afterwards:\n\n")
		} else {
			b.WriteString("These phases of your batch are already done; their work is merged with yours afterwards:\n\n")
		}
		writePhaseList(b, landed)
	}
	b.WriteString("Two phases changing the same lines of a file is a conflict that halts the run. Touch only the files that belong to your phase, and leave the files of the phases above alone.\n\n")
}

func writePhaseList(b *strings.Builder, phases []*plan.Phase) {
	for _, s := range phases {
		fmt.Fprintf(b, "- %s", s.Label())
		if len(s.Files) > 0 {
			fmt.Fprintf(b, " (files: %s)", strings.Join(s.Files, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func writeRules(b *strings.Builder, planPath string) {
	planName := "the plan"
	if planPath != "" {
		planName = "the plan (`" + planPath + "`)"
	}
	b.WriteString("## Rules\n\n")
	b.WriteString("- Work only inside this directory.\n")
	b.WriteString("- Do not commit, and do not change git state (no git commit, add, stash, checkout, reset, rebase, branches or tags): autobuild commits your work once the gates pass.\n")
	fmt.Fprintf(b, "- Do not edit %s: it is the user's record, and autobuild tracks progress itself.\n", planName)
	b.WriteString("- Do not touch `.autobuild/`: it holds autobuild's state.\n")
	b.WriteString("- Do not leave processes running (servers, watch modes) when you exit.\n\n")
}

func writeResultFormat(b *strings.Builder, p *plan.Phase) {
	total := p.Tasks
	if total == 0 {
		total = 3
	}
	id := p.ID
	if id == "" {
		id = "1"
	}
	b.WriteString("## End with a result object\n\n")
	b.WriteString("The last thing you print must be a result object in a fenced json block, like this:\n\n")
	fmt.Fprintf(b, "```json\n"+`{
  "phase_id": %q,
  "status": "complete",
  "tasks": {"total": %d, "completed": %d},
  "commit_message": "feat(scope): what this phase adds",
  "files": {
    "created": ["path/to/new_file.go"],
    "modified": ["path/to/changed_file.go"],
    "deleted": []
  },
  "error": null
}`+"\n```\n\n", id, total, total)
	b.WriteString("- `status` is \"complete\" when every task is done and the gates pass, else \"failed\".\n")
	b.WriteString("- `tasks` counts the phase's tasks (its `- [ ]` items) and how many of them you completed.\n")
	b.WriteString("- `commit_message` is a conventional commit message for your changes: `type(scope): summary`.\n")
	b.WriteString("- `files` lists the paths you created, modified and deleted, relative to this directory.\n")
	b.WriteString("- `error`, when the status is \"failed\", says why: `{\"type\": \"...\", \"message\": \"...\"}`, with a type among " +
		"test_failure, lint_error, typecheck_error, format_error, task_incomplete, context_exhausted, dependency_missing, agent_error.\n")
}

// writeFenced writes content in a fenced code block whose fence is longer
// than any backtick run inside it, so the content stays verbatim.
func writeFenced(b *strings.Builder, info, content string) {
	fence := strings.Repeat("`", max(3, longestRun(content, '`')+1))
	content = strings.TrimRight(content, "\n")
	fmt.Fprintf(b, "%s%s\n%s\n%s\n\n", fence, info, content, fence)
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		best = max(best, run)
	}
	return best
}
