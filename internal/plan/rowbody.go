package plan

import (
	"fmt"
	"strings"
)

// Bodiless returns the phases that would run with no body: not marked done
// in the plan, with no section and no linked file. Their agents would be
// told nothing but a name.
func (p *Plan) Bodiless() []*Phase {
	var out []*Phase
	for _, ph := range p.Phases {
		if !ph.Done() && strings.TrimSpace(ph.Body) == "" {
			out = append(out, ph)
		}
	}
	return out
}

// RowBody writes a body for a phase that has none from what its table row
// says, for a run that was told to run such phases anyway
// (--allow-empty-phases): the agent is told plainly that the row is all
// there is, and where to read the rest of the plan.
func (p *Plan) RowBody(ph *Phase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", ph.Label())
	b.WriteString("This phase has no section of its own in the plan: its row in the plan's table is all there is.\n\n")
	if len(ph.DependsOn) > 0 {
		deps := make([]string, len(ph.DependsOn))
		for i, id := range ph.DependsOn {
			deps[i] = string(id)
			if d := p.Phase(id); d != nil {
				deps[i] = d.Label()
			}
		}
		fmt.Fprintf(&b, "- Depends on: %s\n", strings.Join(deps, "; "))
	}
	if ph.Estimate != "" {
		fmt.Fprintf(&b, "- Estimate: %s\n", ph.Estimate)
	}
	b.WriteString("\nRead the whole plan (its path is in $AUTOBUILD_PLAN) for the context, and do what the phase's name says.\n")
	return b.String()
}
