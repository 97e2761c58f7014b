package runstart

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The wall time counts the sessions of a run, not the hours it sat halted
// between them, nor the time after a kill.
func TestSessionsMakeTheWallTime(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	at := func(min int) *time.Time { v := t0.Add(time.Duration(min) * time.Minute); return &v }

	r := &state.Run{Started: t0}
	StartSession(r, t0)
	r.Finished = at(5) // halted after 5 minutes
	require.Equal(t, 300.0, r.WallSeconds())

	StartSession(r, *at(125)) // resumed two hours later
	require.Equal(t, 300.0, r.ActiveSeconds)
	r.Updated = *at(128) // killed 3 minutes in: run.json last written then
	r.Finished = nil
	StartSession(r, *at(200)) // resumed again
	require.Equal(t, 480.0, r.ActiveSeconds)
	r.Finished = at(204)
	require.Equal(t, 720.0, r.WallSeconds(), "5 + 3 + 4 minutes")

	// A run written before sessions were recorded counts from its start.
	old := &state.Run{Started: t0, Finished: at(30)}
	require.Equal(t, 1800.0, old.WallSeconds())
	StartSession(old, *at(90))
	old.Finished = at(100)
	require.Equal(t, 2400.0, old.WallSeconds())
}
