package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// follower collects a watch's updates for a test.
type follower struct {
	t     *testing.T
	ch    <-chan Update
	last  Update
	lines map[phaseid.ID][]string
	count int
}

func follow(t *testing.T, root string) (*follower, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := Watch(ctx, root, 20*time.Millisecond)
	require.NoError(t, err)
	t.Cleanup(cancel)
	return &follower{t: t, ch: ch, lines: map[phaseid.ID][]string{}}, cancel
}

// until reads updates until cond holds for the latest one.
func (f *follower) until(what string, cond func(u Update) bool) {
	f.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case u, ok := <-f.ch:
			require.True(f.t, ok, "channel closed while waiting for %s", what)
			f.count++
			f.last = u
			for id, l := range u.Lines {
				f.lines[id] = append(f.lines[id], l...)
			}
			if cond(u) {
				return
			}
		case <-deadline:
			f.t.Fatalf("timed out waiting for %s (last update: %+v)", what, f.last)
		}
	}
}

func runStatus(u Update) state.RunStatus {
	if u.Snapshot == nil || u.Snapshot.Run == nil {
		return ""
	}
	return u.Snapshot.Run.Status
}

func phaseStatus(u Update, id phaseid.ID) state.PhaseStatus {
	if u.Snapshot == nil {
		return ""
	}
	for _, p := range u.Snapshot.Phases {
		if p.PhaseID == id {
			return p.Status
		}
	}
	return ""
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString(s)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// A goroutine-free mimic of a run, step by step, each step waiting for the
// update that shows it: the state directory appears after the watch
// started, files are replaced by atomic renames, logs grow, a log is
// replaced, the run ends, and --fresh deletes and re-creates everything.
func TestWatchFollowsARun(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	f, cancel := follow(t, root)

	f.until("the first update", func(u Update) bool { return true })
	require.Nil(t, f.last.Snapshot, "no run yet")
	require.NoError(t, f.last.Err)

	// Unrelated changes in the repository do not matter, and do not break.
	require.NoError(t, os.WriteFile(filepath.Join(root, "README.md"), []byte("hi"), 0o644))

	store := state.Open(root)
	require.NoError(t, store.Init())
	started := time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)
	run := &state.Run{PlanPath: "plan.md", PlanTitle: "Demo", CommitMode: "auto", Status: state.RunRunning, Started: started}
	require.NoError(t, store.SaveRun(run))
	f.until("the run", func(u Update) bool { return runStatus(u) == state.RunRunning })

	p := &state.Phase{PhaseID: "2a", DisplayID: "2A", PhaseName: "API", Batch: 1, Status: state.PhaseRunning, Attempt: 1, MaxAttempts: 2}
	require.NoError(t, store.SavePhase(p))
	log := store.AttemptLogPath("2a", 1)
	appendFile(t, log, "one\ntwo\nthree (cont")
	f.until("the phase and its lines", func(u Update) bool {
		return phaseStatus(u, "2a") == state.PhaseRunning && len(f.lines["2a"]) == 2
	})
	require.Equal(t, []string{"one", "two"}, f.lines["2a"], "a partial line waits for its end")

	appendFile(t, log, "inued)\r\nfour\n")
	p.Status = state.PhaseFailed
	require.NoError(t, store.SavePhase(p))
	f.until("more lines", func(u Update) bool { return len(f.lines["2a"]) == 4 && phaseStatus(u, "2a") == state.PhaseFailed })
	require.Equal(t, []string{"one", "two", "three (continued)", "four"}, f.lines["2a"])

	// The retry's log, then the first log replaced wholesale: read anew.
	appendFile(t, store.AttemptLogPath("2a", 2), "retry line\n")
	f.until("the retry's line", func(Update) bool { return len(f.lines["2a"]) == 5 })
	tmp := log + ".tmp"
	require.NoError(t, os.WriteFile(tmp, []byte("rewritten\n"), 0o644))
	require.NoError(t, os.Rename(tmp, log))
	f.until("the replaced log", func(Update) bool { return len(f.lines["2a"]) == 6 })
	require.Equal(t, "rewritten", f.lines["2a"][5])

	run.Status = state.RunHalted
	require.NoError(t, store.SaveRun(run))
	f.until("the halt", func(u Update) bool { return runStatus(u) == state.RunHalted })

	// --fresh: everything goes, then a new run appears.
	require.NoError(t, os.RemoveAll(store.Dir()))
	f.until("the state to vanish", func(u Update) bool { return u.Snapshot == nil })
	require.NoError(t, store.Init())
	run.Status, run.Started = state.RunRunning, started.Add(time.Hour)
	require.NoError(t, store.SaveRun(run))
	appendFile(t, log, "fresh start\n")
	f.until("the new run", func(u Update) bool {
		return runStatus(u) == state.RunRunning && slices.Contains(f.lines["2a"], "fresh start")
	})

	cancel()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-f.ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("the channel was not closed after the context ended")
		}
	}
}

// A burst of writes becomes a few updates, and no line is lost or doubled.
func TestWatchDebouncesBursts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	store := state.Open(root)
	require.NoError(t, store.Init())
	require.NoError(t, store.SaveRun(&state.Run{Status: state.RunRunning}))
	f, _ := follow(t, root)
	f.until("the first update", func(u Update) bool { return runStatus(u) == state.RunRunning })
	first := f.count

	log := store.AttemptLogPath("1", 1)
	var want []string
	for i := range 200 {
		line := "line " + string(rune('a'+i%26))
		want = append(want, line)
		appendFile(t, log, line+"\n")
	}
	f.until("every line", func(Update) bool { return len(f.lines["1"]) >= len(want) })
	require.Equal(t, want, f.lines["1"])
	require.Less(t, f.count-first, 50, "200 writes in a burst must not make 200 updates")
}

// A corrupt state file is reported, and the watch goes on.
func TestWatchReportsCorruptState(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	store := state.Open(root)
	require.NoError(t, store.Init())
	require.NoError(t, os.WriteFile(store.RunPath(), []byte("{not json"), 0o644))
	f, _ := follow(t, root)
	f.until("the error", func(u Update) bool { return u.Err != nil })
	require.ErrorContains(t, f.last.Err, "run.json")
	require.NoError(t, store.SaveRun(&state.Run{Status: state.RunComplete}))
	f.until("the repaired state", func(u Update) bool { return u.Err == nil && runStatus(u) == state.RunComplete })
}

func TestWatchFailsOnAMissingRoot(t *testing.T) {
	t.Parallel()
	_, err := Watch(context.Background(), filepath.Join(t.TempDir(), "nope"), 0)
	require.Error(t, err)
}

// A goroutine mimics a whole run at speed, without waiting for the watcher:
// the state directory appears after the watch started, run.json and the
// phase files are replaced by atomic renames again and again, logs grow in
// writes that split lines, and the run ends. The watcher ends up with the
// final state and every log line exactly once, in order.
func TestWatchKeepsUpWithARunMimickedByAGoroutine(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	f, _ := follow(t, root)
	f.until("the first update", func(Update) bool { return true })

	ids := []phaseid.ID{"0", "1a", "1b"}
	const linesPerAttempt = 150
	want := map[phaseid.ID][]string{}
	for _, id := range ids {
		for n := 1; n <= 2; n++ {
			for i := range linesPerAttempt {
				want[id] = append(want[id], fmt.Sprintf("%s attempt %d line %d", id, n, i))
			}
		}
	}

	errc := make(chan error, 1)
	go func() {
		errc <- func() error {
			time.Sleep(10 * time.Millisecond)
			store := state.Open(root)
			if err := store.Init(); err != nil {
				return err
			}
			run := &state.Run{PlanPath: "plan.md", Status: state.RunRunning, Started: time.Now()}
			if err := store.SaveRun(run); err != nil {
				return err
			}
			for _, id := range ids {
				p := &state.Phase{PhaseID: id, DisplayID: phaseid.Display(strings.ToUpper(string(id))), Status: state.PhaseRunning, MaxAttempts: 2}
				for n := 1; n <= 2; n++ {
					p.Attempt = n
					if err := store.SavePhase(p); err != nil {
						return err
					}
					log, err := os.OpenFile(store.AttemptLogPath(id, n), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
					if err != nil {
						return err
					}
					for i := range linesPerAttempt {
						line := fmt.Sprintf("%s attempt %d line %d\n", id, n, i)
						// Two writes per line: the watcher may read between
						// them and must keep the half line for later.
						half := len(line) / 2
						if _, err := log.WriteString(line[:half]); err != nil {
							return err
						}
						if _, err := log.WriteString(line[half:]); err != nil {
							return err
						}
						if i%25 == 0 {
							run.Updated = time.Now()
							if err := store.SaveRun(run); err != nil {
								return err
							}
						}
					}
					if err := log.Close(); err != nil {
						return err
					}
				}
				p.Status = state.PhaseComplete
				if err := store.SavePhase(p); err != nil {
					return err
				}
			}
			run.Status = state.RunComplete
			return store.SaveRun(run)
		}()
	}()

	f.until("the end of the run with every line", func(u Update) bool {
		if runStatus(u) != state.RunComplete {
			return false
		}
		for _, id := range ids {
			if phaseStatus(u, id) != state.PhaseComplete || len(f.lines[id]) < len(want[id]) {
				return false
			}
		}
		return true
	})
	require.NoError(t, <-errc)
	require.NoError(t, f.last.Err)
	for _, id := range ids {
		require.Equal(t, want[id], f.lines[id], "phase %s", id)
	}
}
