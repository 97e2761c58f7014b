package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/review"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// newSteer is `autobuild steer PHASE --note TEXT`: the UI's M from any
// terminal (docs/running.md "Steering a running phase").
func newSteer(s Streams) *cobra.Command {
	var note string
	cmd := &cobra.Command{
		Use:   "steer PHASE --note TEXT",
		Short: "Send a note to a running phase: its agent is stopped and continues with the note (the retry is not used)",
		Long: fmt.Sprintf(`Send a note to a phase that is running: the run stops its attempt gracefully
and continues it with the note, in the agent CLI's own session when it can go
on (%s, an ACP agent that loads sessions), else in a fresh session whose
prompt ends with the note, on top of the work so far. The retry is not used
up. The note is kept in the phase file and the history.`, strings.Join(preset.ResumableNames(), ", ")),
		Example: "  autobuild steer 2a --note 'use the standard library, no new dependency'",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(note) == "" {
				return usageErr("--note TEXT is required: it is what the agent is asked to take into account")
			}
			// -C DIR (a flag of every command) steers the run in DIR.
			store, snap, err := runSnapshot(".")
			if err != nil {
				return err
			}
			p := review.Find(snap.Phases, args[0], plan.NormalizeID)
			if p == nil {
				return usageErr("no phase %q in the run", args[0])
			}
			live := snap.Run.Status == state.RunRunning && snap.Run.PID > 0 && processAlive(snap.Run.PID)
			if p.Status != state.PhaseRunning || !live {
				return exitcode.Refusedf("phase %s is not running (it is %s): a note steers a running attempt", p.DisplayID.Or(p.PhaseID), p.Status)
			}
			if err := store.SaveSteer(state.Steer{PhaseID: p.PhaseID, Note: strings.TrimSpace(note), Sent: time.Now().UTC()}); err != nil {
				return &exitcode.Error{Code: exitcode.Refused, Err: err}
			}
			fmt.Fprintf(s.Out, "Note sent to phase %s: its agent stops and continues with it.\n", p.DisplayID.Or(p.PhaseID))
			return nil
		},
	}
	cmd.Flags().StringVar(&note, "note", "", "what the agent should take into account")
	return cmd
}
