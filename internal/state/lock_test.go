package state

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// lockHelperEnv makes the test binary a helper process that takes the lock
// of the directory named in the variable, says so, and waits to be killed.
const lockHelperEnv = "AUTOBUILD_STATE_TEST_LOCK_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(lockHelperEnv); dir != "" {
		if _, err := Open(dir).Lock(); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		select {} // hold the lock until killed
	}
	os.Exit(m.Run())
}

func TestLockRefusesSecondRun(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	lock, err := s.Lock()
	require.NoError(t, err)

	_, err = Open(s.Root()).Lock()
	var le *LockedError
	require.True(t, errors.As(err, &le), "got %v", err)
	require.Equal(t, os.Getpid(), le.PID)
	require.Equal(t, fmt.Sprintf("another autobuild run (pid %d) is using .autobuild/: wait for it to finish, or stop it (kill %d)",
		os.Getpid(), os.Getpid()), err.Error())

	require.NoError(t, lock.Unlock())
	again, err := s.Lock()
	require.NoError(t, err, "free after Unlock")
	require.NoError(t, again.Unlock())
}

func TestLockedErrorWithoutPID(t *testing.T) {
	t.Parallel()
	require.Equal(t, "another autobuild run is using .autobuild/: wait for it to finish, or stop it",
		(&LockedError{}).Error())
}

func TestLockFreedWhenHolderIsKilled(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+s.Root())
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	killed := false
	t.Cleanup(func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	_, err = s.Lock()
	var le *LockedError
	require.True(t, errors.As(err, &le), "got %v", err)
	require.Equal(t, cmd.Process.Pid, le.PID, "the refusal names the holder")

	require.NoError(t, cmd.Process.Kill()) // SIGKILL: no chance to unlock
	_ = cmd.Wait()
	killed = true

	lock, err := s.Lock()
	require.NoError(t, err, "a killed holder never blocks the next run")
	require.Equal(t, os.Getpid(), readLockPID(s.LockPath()))
	require.NoError(t, lock.Unlock())
}

// A run killed in the middle of an atomic write leaves a temporary file; the
// next holder of the lock removes it, and never a state file.
func TestLockRemovesStaleTemps(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	require.NoError(t, s.Init())
	require.NoError(t, s.SaveRun(&Run{PlanPath: "plan.md"}))
	require.NoError(t, s.SavePhase(&Phase{PhaseID: "2a"}))
	stale := []string{
		filepath.Join(s.Dir(), ".run.json"+tempMarker+"123"),
		filepath.Join(s.PhasesDir(), ".phase-2a.json"+tempMarker+"456"),
	}
	for _, p := range stale {
		require.NoError(t, os.WriteFile(p, []byte(`{"half`), 0o644))
	}
	lock, err := s.Lock()
	require.NoError(t, err)
	defer lock.Unlock()
	for _, p := range stale {
		require.NoFileExists(t, p)
	}
	_, err = s.LoadRun()
	require.NoError(t, err)
	_, err = s.LoadPhase("2a")
	require.NoError(t, err)
}
