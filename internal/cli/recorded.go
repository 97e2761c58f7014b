package cli

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// noteRecordedAgents says which commands a run without --agent is about to
// run because .autobuild/run.json records them: that file can be edited,
// and what it names runs with your rights, so it never runs unannounced.
func noteRecordedAgents(s Streams, o *runOptions) {
	if len(o.agentsFromRun) == 0 {
		return
	}
	fmt.Fprintf(s.Err, "autobuild: running the agents recorded in .autobuild/run.json: %s (pass --agent to choose others)\n",
		sanitize.Line(strings.Join(o.agentsFromRun, ", ")))
}
