package cli

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/plan"
)

// checkBodies refuses a run with phases that have no body (no section, no
// linked file): their agents would get an empty prompt. With allow, they
// run from their table row alone, and the prompt says so.
func checkBodies(pl *plan.Plan, allow bool) error {
	empty := pl.Bodiless()
	if len(empty) == 0 {
		return nil
	}
	if allow {
		for _, ph := range empty {
			ph.Body = pl.RowBody(ph)
		}
		return nil
	}
	var list []string
	for _, ph := range empty {
		where := ""
		if ph.Line > 0 {
			where = fmt.Sprintf(" (%s:%d)", pl.Path, ph.Line)
		}
		list = append(list, "  "+ph.Label()+where)
	}
	return usageErr("%d phase(s) have no body, so their agents would be told nothing but a name:\n%s\n"+
		"Give each a section (## Phase %s: …) or link its file from its table row ([Phase %s](phases/phase-%s.md)), "+
		"mark it done in the table, or run them from the table row alone with --allow-empty-phases",
		len(empty), strings.Join(list, "\n"), empty[0].DisplayID, empty[0].DisplayID, empty[0].ID)
}
