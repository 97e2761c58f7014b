package printer

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Tool calls print without -v, one cleaned line each; an attempt's and the
// run's usage follow their lines; JSON carries both as fields.
func TestPlainAgentActionsAndUsage(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	p := &Plain{W: &b, Location: cet}
	u := &state.Usage{InputTokens: 12300, OutputTokens: 4100, CacheReadTokens: 20000, Turns: 7, CostUSD: 0.42}
	for _, e := range []event.Event{
		{Kind: event.AgentAction, Time: at(1), PhaseID: "2a", DisplayID: "2A", Tool: "Write", Line: "Write calc/format.go\x1b]0;title\x07"},
		{Kind: event.PhaseCompleted, Time: at(2), PhaseID: "2a", DisplayID: "2A", Attempt: 1, MaxAttempts: 2, DurationSeconds: 3, Usage: u},
		{Kind: event.RunComplete, Time: at(3), Line: "all phases complete", Usage: u},
	} {
		p.Print(e)
	}
	require.Equal(t, strings.Join([]string{
		"[11:30:01]   2A → Write calc/format.go",
		"[11:30:02] PHASE 2A COMPLETE (attempt 1/2) in 3.0s [12.3k in, 4.1k out, 20k cached, 7 turns, $0.42]",
		"[11:30:03] RUN COMPLETE - all phases complete [12.3k in, 4.1k out, 20k cached, 7 turns, $0.42]",
	}, "\n")+"\n", b.String())

	out := printJSON([]event.Event{{Kind: event.AgentAction, Time: at(1), PhaseID: "2a", DisplayID: "2A", Attempt: 1, Tool: "Bash", Line: "Bash go test ./..."},
		{Kind: event.RunHalted, Time: at(2), Line: "x", Usage: &state.Usage{InputTokens: 5, OutputTokens: 6, CostUSD: 0.01}}})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.JSONEq(t, `{"event":"agent_action","time":"2026-03-14T10:30:01Z","phase_id":"2a","display_id":"2A","attempt":1,"tool":"Bash","line":"Bash go test ./..."}`, lines[0])
	require.JSONEq(t, `{"event":"run_halted","time":"2026-03-14T10:30:02Z","line":"x","usage":{"input_tokens":5,"output_tokens":6,"cost_usd":0.01}}`, lines[1])
}

// A tool call is output for the heartbeat too: the phase is not quiet.
func TestHeartbeatCountsToolCalls(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 14, 10, 30, 0, 0, time.UTC)
	now := t0.Add(30 * time.Second)
	var out bytes.Buffer
	h := &Heartbeat{W: &out, Now: func() time.Time { return now }, Location: time.UTC}
	print := h.Wrap(func(event.Event) {})
	print(event.Event{Kind: event.PhaseStarted, Time: t0, PhaseID: "2a", DisplayID: "2A", Attempt: 1, MaxAttempts: 2})
	print(event.Event{Kind: event.AgentAction, Time: t0.Add(25 * time.Second), PhaseID: "2a", Tool: "Bash", Line: "Bash go test ./..."})
	h.Beat()
	require.Equal(t, "[10:30:30] PHASE 2A RUNNING 30s (attempt 1/2) - last output 5s ago: → Bash go test ./...\n", out.String())
}
