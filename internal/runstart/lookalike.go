package runstart

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// CheckLookAlikeIDs refuses a plan with two phase ids that look the same
// but differ (2A and 2А with a Cyrillic А): every message, dependency and
// commit naming one could be read as the other.
func CheckLookAlikeIDs(pl *plan.Plan) error {
	if pl == nil {
		return nil
	}
	pairs := plan.LookAlikeIDs(pl)
	if len(pairs) == 0 {
		return nil
	}
	var names []string
	for _, p := range pairs {
		names = append(names, fmt.Sprintf("%s (%s) and %s (%s)", p[0].DisplayID, codePoints(p[0].DisplayID), p[1].DisplayID, codePoints(p[1].DisplayID)))
	}
	return exitcode.Usagef("%s: phase ids that look the same but differ: %s; rename one of each pair (plain ASCII ids are safest)",
		plan.CodePlanInvalid, strings.Join(names, "; "))
}

// codePoints spells the non-ASCII characters of s as U+XXXX, so the
// difference can be seen.
func codePoints(s phaseid.Display) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "<U+%04X>", r)
		}
	}
	return b.String()
}
