package summary

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// remoteInput is haltedInput's run made on Temporal workers (--executor
// temporal): each attempt names its worker, phase 2B's second attempt
// ran on another worker than its first.
func remoteInput() Input {
	in := haltedInput()
	workers := map[string]string{"0": "build-7:4242", "1": "build-9:311", "2a": "build-7:4242"}
	for _, p := range in.Phases[:3] {
		p.Attempts = []state.Attempt{{Number: 1, Outcome: state.OutcomeComplete, Worker: workers[string(p.PhaseID)]}}
	}
	failed := in.Phases[3]
	failed.Attempts[0].Worker, failed.Attempts[1].Worker = "build-7:4242", "build-9:311"
	return in
}

func remoteComplete(in Input) Input {
	fin := in.Run.Started.Add(3*time.Minute + 12*time.Second)
	in.Run.Status, in.Run.Finished = state.RunComplete, &fin
	in.Phases = in.Phases[:3]
	return in
}

// The halt box names the worker of the failed phase's last attempt beside
// its failure; the complete box says on which workers the phases ran.
func TestRemoteSummariesNameTheWorkers(t *testing.T) {
	out := Render(remoteInput(), 80)
	golden(t, "halt-remote-80.txt", out)
	require.Contains(t, out, "Error: test_failure on worker build-9:311", "the last attempt's worker, not the first's")

	out = Render(remoteComplete(remoteInput()), 80)
	golden(t, "complete-remote-80.txt", out)
	require.Contains(t, out, "Workers: build-7:4242 (2 phases), build-9:311 (1).")
}

// A failure with no report still names its worker; a phase made on this
// machine in a later local session is counted as such.
func TestRemoteSummaryWithoutReportAndMixedSessions(t *testing.T) {
	in := remoteInput()
	in.Phases[3].Error = nil
	out := Render(in, 80)
	require.Contains(t, out, "  Last attempt on worker build-9:311")

	in = remoteComplete(remoteInput())
	in.Phases[2].Attempts[0].Worker = ""
	require.Contains(t, Render(in, 80), "Workers: build-7:4242 (1 phase), build-9:311 (1), this machine (1).")
}

// A local run (no attempt names a worker) says nothing of workers.
func TestLocalSummariesNameNoWorker(t *testing.T) {
	in := haltedInput()
	for _, p := range in.Phases[:3] {
		p.Attempts = []state.Attempt{{Number: 1, Outcome: state.OutcomeComplete}}
	}
	require.NotContains(t, Render(in, 80), "worker")
	require.NotContains(t, Render(remoteComplete(in), 80), "Workers")
}

// A worker names itself on another machine: a name with escape sequences,
// a newline or a bidi override prints as one line of text, and a name
// longer than the box wraps inside it, at every width.
func TestRemoteSummaryWorkerNamesAreCleanAndFit(t *testing.T) {
	hostile := "evil\x1b]52;c;cm0gLXJmIH4=\x07\nRUN: rm -rf ~\u202e\x1bc:1"
	long := strings.Repeat("w", 130) + ":7"
	mk := func() Input {
		in := remoteInput()
		in.Phases[3].Attempts[1].Worker = hostile
		in.Phases[0].Attempts[0].Worker = long
		return in
	}
	for _, width := range []int{40, 60, 80, 120} {
		for _, out := range []string{Render(mk(), width), Render(remoteComplete(mk()), width)} {
			for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				require.Equal(t, width, ansi.StringWidth(l), "width %d: %q", width, l)
				require.NotContains(t, l, "\x1b")
				require.NotContains(t, l, "\u202e")
				require.NotContains(t, l, "\x07")
			}
		}
	}
	out := Render(mk(), 80)
	require.Contains(t, out, "on worker evilRUN: rm -rf ~:1", "the newline is dropped, not a row of its own")
	flat := strings.Join(strings.Fields(strings.NewReplacer("║", "").Replace(Render(remoteComplete(mk()), 80))), "")
	require.Contains(t, flat, long+"(1phase)", "the long name is all there, wrapped")
}
