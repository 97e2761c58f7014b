package prompts

import (
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/plan"
)

// phaseSource says where the phase's text in the prompt comes from: its
// section of the plan, the file its table row links, or both.
func phaseSource(p *plan.Phase) string {
	switch {
	case p.BodyFile != "" && p.SectionLine == 0:
		return fmt.Sprintf("The phase's description, from `%s` (the file its row in the plan links), verbatim:", p.BodyFile)
	case p.BodyFile != "":
		return fmt.Sprintf("The phase's section of the plan, then the file its row links (`%s`), verbatim:", p.BodyFile)
	}
	return "The phase's section of the plan, verbatim:"
}
