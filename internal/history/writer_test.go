package history

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func rec(i int) Record {
	return Record{Kind: KindAttempt, RunID: "r", Session: "s", PlanPath: "plan.md", PhaseID: phaseid.ID(strconv.Itoa(i)),
		Attempt: 1, Outcome: "complete", Time: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC)}
}

func TestAppendThenRead(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.jsonl")
	w := NewWriter(path)
	for i := range 3 {
		require.NoError(t, w.Append(rec(i)))
	}
	recs, warnings, err := Read(path)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Len(t, recs, 3)
	for i, r := range recs {
		require.Equal(t, Version, r.V, "the version is stamped")
		require.Equal(t, phaseid.ID(strconv.Itoa(i)), r.PhaseID)
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, 3, strings.Count(string(data), "\n"), "one line per record")
}

func TestReadingAMissingHistoryIsEmpty(t *testing.T) {
	t.Parallel()
	recs, warnings, err := Read(filepath.Join(t.TempDir(), "history.jsonl"))
	require.NoError(t, err)
	require.Empty(t, recs)
	require.Empty(t, warnings)
}

func TestATornLastLineIsSkippedWithAWarningAndTheNextAppendStartsAfreshLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.jsonl")
	w := NewWriter(path)
	require.NoError(t, w.Append(rec(0)))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"v":1,"kind":"attempt","run_id":"r","pha`) // a kill mid-write
	require.NoError(t, err)
	require.NoError(t, f.Close())

	recs, warnings, err := Read(path)
	require.NoError(t, err, "a torn line is never an error")
	require.Len(t, recs, 1)
	require.Len(t, warnings, 1)
	require.Contains(t, warnings[0], "history.jsonl line 2 skipped: a torn last line")

	require.NoError(t, w.Append(rec(1)))
	recs, warnings, err = Read(path)
	require.NoError(t, err)
	require.Len(t, recs, 2, "the record after the torn line is whole")
	require.Equal(t, phaseid.ID("1"), recs[1].PhaseID)
	require.Len(t, warnings, 1)
	require.Contains(t, warnings[0], "line 2 skipped: not a JSON record")
}

func TestBadLinesAreSkippedNotFatal(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"v":1,"kind":"attempt","phase_id":"1"}`,
		`garbage`,
		``,
		`{"v":99,"kind":"attempt"}`,
		`{"v":1,"kind":"weather"}`,
		`{"v":1,"kind":"run_end","status":"complete"}`,
	}, "\n") + "\n"
	recs, warnings, err := Parse(strings.NewReader(in), "h")
	require.NoError(t, err)
	require.Len(t, recs, 2)
	require.Equal(t, []string{
		"h line 2 skipped: not a JSON record (invalid character 'g' looking for beginning of value)",
		"h line 4 skipped: written by a newer autobuild (record version 99)",
		`h line 5 skipped: unknown kind "weather"`,
	}, warnings)
}

func TestRotationKeepsOneOlderFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.jsonl")
	w := NewWriter(path)
	w.MaxBytes = 1000
	for i := range 40 {
		require.NoError(t, w.Append(rec(i)))
	}
	for _, p := range []string{path, path + ".1"} {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		require.LessOrEqual(t, fi.Size(), int64(1000))
	}
	_, err := os.Stat(path + ".2")
	require.ErrorIs(t, err, os.ErrNotExist)
	recs, warnings, err := Read(path)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.NotEmpty(t, recs)
	require.Equal(t, phaseid.ID("39"), recs[len(recs)-1].PhaseID, "the newest record is last")
	for i := 1; i < len(recs); i++ {
		a, _ := strconv.Atoi(string(recs[i-1].PhaseID))
		b, _ := strconv.Atoi(string(recs[i].PhaseID))
		require.Equal(t, a+1, b, "the rotated copy is read first, in order, with nothing in between lost")
	}
}

// The child process of TestKilledWriter: it appends records until killed.
func TestMain(m *testing.M) {
	if path := os.Getenv("AUTOBUILD_HISTORY_CHILD"); path != "" {
		w := NewWriter(path)
		big := strings.Repeat("x", 4000) // long lines make a kill mid-write likelier
		for i := 0; ; i++ {
			r := rec(i)
			r.FailureMessage = big
			if err := w.Append(r); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			if i == 20 {
				fmt.Println("ready")
			}
		}
	}
	os.Exit(m.Run())
}

func TestKilledWriter(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.jsonl")
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "AUTOBUILD_HISTORY_CHILD="+path)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		buf := make([]byte, 6)
		_, err = out.Read(buf) // the child has appended some records
		require.NoError(t, err)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()

		recs, warnings, err := Read(path)
		require.NoError(t, err, "round %d: reading after a kill -9 never fails", round)
		require.GreaterOrEqual(t, len(recs), 21*(round+1))
		require.LessOrEqual(t, len(warnings), round+1, "at most one torn line per kill: %v", warnings)
		for _, r := range recs {
			require.Equal(t, KindAttempt, r.Kind)
			require.Len(t, r.FailureMessage, 4000, "every record read is whole")
		}
	}
	// Appending after the kills works, and the record is read whole.
	require.NoError(t, NewWriter(path).Append(rec(-1)))
	recs, _, err := Read(path)
	require.NoError(t, err)
	require.Equal(t, phaseid.ID("-1"), recs[len(recs)-1].PhaseID)
}
