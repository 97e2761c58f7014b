package prompts

import (
	"fmt"
	"strings"
)

// BuildCompact is the prompt of a fresh session after one that ran
// out of context and cannot be continued: the phase, its gates and the
// result to end with, and a short account of the work done (files changed,
// tasks completed) instead of the whole history, so the new session starts
// with room to finish.
func BuildCompact(in Input) string {
	p := in.Phase
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# %s\n\n", p.Label())
	w("You are a coding agent run by autobuild, working unattended on %s of the plan %s", p.Label(), quoteTitle(in.PlanTitle))
	if in.PlanPath != "" {
		w(" (`%s`)", in.PlanPath)
	}
	w(". The previous session on this phase ran out of context before it finished. ")
	if in.Continues {
		w("Its work is in this directory: continue on top of it, and do not start over.\n\n")
	} else {
		w("This directory starts again from the phase's base.\n\n")
	}
	w("## Your phase\n\n")
	writeFenced(&b, "markdown", p.Body)
	writeGates(&b, in.Gates)
	if len(in.Previous) > 0 {
		last := in.Previous[len(in.Previous)-1]
		b.WriteString("## Work done so far\n\n")
		if len(last.FilesChanged) > 0 {
			w("- Files changed: %s\n", strings.Join(last.FilesChanged, ", "))
		}
		if len(last.WorkCompleted) > 0 {
			w("- Completed: %s\n", strings.Join(last.WorkCompleted, "; "))
		}
		if in.PreviousDiffPath != "" {
			w("- Its diff is in `%s`; read only the parts you need.\n", in.PreviousDiffPath)
		}
		b.WriteString("- Keep your context small: read files in parts and avoid printing large outputs.\n\n")
	}
	writeRules(&b, in.PlanPath)
	writeResultFormat(&b, p)
	return strings.TrimRight(b.String(), "\n") + "\n"
}
