package summary

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// verifyLine says what the run did to keep its line green (docs/running.md,
// "The line stays green"): the combinations it verified together and the
// conflicts found, that the combination was not verified under
// --verify=off, and the gates a red base already failed. A run that had
// nothing to verify together goes unsaid, so its box is as it always was.
func verifyLine(b *box, run *state.Run) {
	if run == nil {
		return
	}
	if run.Verify == "off" {
		b.text("Not verified together (--verify=off): each phase passed its gates on its own base; their combination was not verified.", 0)
		return
	}
	v := run.LineVerification
	if v == nil {
		return
	}
	if v.Groups > 0 {
		line := "Verified together: " + human.Count(v.Groups, "group", "groups")
		switch v.Conflicts {
		case 0:
		case 1:
			line += ", 1 conflict found and retried"
		default:
			line += fmt.Sprintf(", %d conflicts found and retried", v.Conflicts)
		}
		b.text(line+".", 19)
	}
	if len(v.RedBase) > 0 {
		b.text("Red base (--allow-red-base): "+strings.Join(v.RedBase, ", ")+" already failed before the run; only new failures counted.", 0)
	}
}
