package proc

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// A guard is a small process that leads each child's process group and
// kills that group when autobuild dies. The parent-death signal alone is not
// enough: it reaches only the direct child (the agent or the shell running a
// gate), while whatever that child started (a test binary, a dev server, the
// tools of a real agent CLI) would live on, reparented to init, still editing
// a worktree nobody watches. The guard holds the read end of a pipe whose
// only writer is autobuild; the kernel closes the writer when autobuild exits
// in any way, kill -9 included, and the guard then sends SIGKILL to its
// group.
//
// The guard is this very binary started again (/proc/self/exe on Linux) with
// guardEnv set; the init function below turns such a process into a guard
// before main runs, so every binary that links this package (autobuild, and
// the test binaries of the packages that run processes) can guard its
// children without any setup.

// guardEnv marks a process started as a guard.
const guardEnv = "AUTOBUILD_PROC_GUARD"

// guardName is the guard's argv[0], which is what ps shows.
const guardName = "autobuild-guard"

// guardFD is the descriptor of the pipe's read end in the guard (the first of
// exec.Cmd.ExtraFiles).
const guardFD = 3

func init() {
	if os.Getenv(guardEnv) == "1" && len(os.Args) > 0 && os.Args[0] == guardName {
		guardMain()
	}
}

// guardMain is the whole life of a guard: wait for autobuild to go away, then
// take the process group down. It never returns.
func guardMain() {
	// The group's stop signal (SIGTERM, then SIGKILL after the grace) is
	// meant for the agent; the guard only dies with the group's SIGKILL, so
	// it is there for as long as anything in the group is.
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	parent := os.NewFile(guardFD, "autobuild")
	if parent != nil {
		_, _ = io.Copy(io.Discard, parent)
	}
	// EOF: autobuild has exited (or closed the pipe because the child is
	// done). First whatever left the group (setsid daemons), which the
	// group's signal would miss; then the group, pid 0, this one included.
	if m := os.Getenv(guardMarkerEnv); m != "" {
		killMarked(m)
	}
	_ = syscall.Kill(0, syscall.SIGKILL)
	os.Exit(1) // not reached: the signal includes this process
}

// guard is a running guard process, the leader of a new process group.
type guard struct {
	cmd *exec.Cmd
	// w is the pipe's write end; closing it ends the guard and its group.
	w *os.File
}

// startGuard starts a guard in a new process group of its own and returns
// it; the child to supervise then joins the group (joinGroup). It returns
// nil when no guard could be started (the binary is gone, no descriptors
// left); the child then leads its own group as before, without protection
// against autobuild's kill -9.
func startGuard(marker string) *guard {
	exe := selfExe()
	if exe == "" {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	cmd := &exec.Cmd{
		Path:       exe,
		Args:       []string{guardName},
		Env:        []string{guardEnv + "=1", "GOMAXPROCS=1", guardMarkerEnv + "=" + marker},
		ExtraFiles: []*os.File{r},
		// No parent-death signal: the guard must outlive autobuild to
		// do its work.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	err = cmd.Start()
	r.Close() // the guard has its own copy
	if err != nil {
		w.Close()
		return nil
	}
	return &guard{cmd: cmd, w: w}
}

// pgid returns the process group the guard leads.
func (g *guard) pgid() int { return g.cmd.Process.Pid }

// stop kills the guard's group (the guard included) and reaps the guard.
func (g *guard) stop() {
	killGroup(g.pgid(), syscall.SIGKILL)
	g.w.Close()
	_ = g.cmd.Wait()
}
