package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitenv"
)

// TailSize is how many bytes of output a Result keeps.
const TailSize = 16 << 10

// DefaultGrace is the time between SIGTERM and SIGKILL when Spec.Grace is 0.
const DefaultGrace = 10 * time.Second

// drainWait bounds how long Run waits for output after the process group is
// gone: a descendant that left the group (setsid) may still hold the pipe.
const drainWait = 2 * time.Second

// Spec describes one process to run.
type Spec struct {
	// Args is the command and its arguments; ignored when Shell is set.
	Args []string
	// Shell is a command line run with /bin/sh -c.
	Shell string
	Dir   string
	// Env entries are appended to the current environment.
	Env   []string
	Stdin io.Reader
	// Timeout bounds the whole run; IdleTimeout bounds a stretch with no
	// output. Zero means no limit.
	Timeout     time.Duration
	IdleTimeout time.Duration
	// Grace is the time between SIGTERM and SIGKILL (DefaultGrace if zero).
	Grace time.Duration
	// HardStop, when closed, kills the process group at once (a second Ctrl-C).
	HardStop <-chan struct{}
	// OnLine receives each output line without its newline.
	OnLine func(string)
	// Lines, when set, is asked once per read of the output which of the
	// read's lines OnLine (and OnStderrLine) should get: a consumer that
	// shows none, or only the latest, spares a string per line of a flood.
	// Nil means every line.
	Lines func() LineMode
	// Output receives the raw output.
	Output io.Writer
	// OnStderrLine, when set, keeps stderr apart from stdout: stderr goes
	// through its own pipe, its lines to OnStderrLine and its bytes to
	// StderrOutput, and OnLine, Output and Result.Tail get stdout only. An
	// agent CLI's stderr (a prompt it echoes, its warnings) must never be
	// read as what its stdout says.
	OnStderrLine func(string)
	StderrOutput io.Writer
	// Abort, when closed, stops the process group as a timeout does
	// (SIGTERM, then SIGKILL after Grace), and the Result says Aborted: the
	// caller saw in its output that it cannot succeed.
	Abort <-chan struct{}
	// Finish, when closed, says the process's work is done although it
	// keeps running (an ACP agent is a server: its turn ends, the process
	// does not): the group is stopped as Abort stops it, and the Result
	// says Finished with exit status 0 whatever the signal did.
	Finish <-chan struct{}
	// BeforeStop, when set, is called once before a timeout, the context
	// or Abort sends SIGTERM (not for Finish nor the hard stop): an ACP
	// client cancels the agent's turn there. It should return within a
	// few seconds.
	BeforeStop func()
}

// Result is what happened to the process.
type Result struct {
	// ExitCode is the exit status, 127 when the command was not found and
	// -1 when the process died of a signal or never started.
	ExitCode int
	Duration time.Duration
	// TimedOut and IdleTimedOut: autobuild stopped it for running too long or
	// for going silent. Canceled: the context ended first.
	TimedOut     bool
	IdleTimedOut bool
	Canceled     bool
	// Aborted: Spec.Abort stopped it.
	Aborted bool
	// Finished: Spec.Finish ended it, its work done (ExitCode 0).
	Finished bool
	// NotFound: the command does not exist (exec failure or exit 127).
	NotFound bool
	// Signaled: the process ended because of a signal.
	Signaled bool
	// Err is a start or wait failure that is not an exit status.
	Err error
	// Tail is the last TailSize bytes of output (of stdout alone when
	// Spec.OnStderrLine keeps stderr apart, whose tail is StderrTail).
	Tail       string
	StderrTail string
}

// Run starts the process described by spec and supervises it to the end.
func Run(ctx context.Context, spec Spec) Result {
	started := time.Now()
	res := run(ctx, spec)
	res.Duration = time.Since(started)
	return res
}

func run(ctx context.Context, spec Spec) Result {
	if spec.Grace <= 0 {
		spec.Grace = DefaultGrace
	}
	cmd, err := command(spec)
	if err != nil {
		return Result{ExitCode: 127, NotFound: true, Err: err}
	}
	if ctx.Err() != nil {
		return Result{ExitCode: -1, Canceled: true, Err: ctx.Err()}
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		return Result{ExitCode: -1, Err: fmt.Errorf("creating the output pipe: %w", err)}
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	out := newSink(spec.Output, spec.OnLine, spec.Lines)
	var errOut *sink
	var epr, epw *os.File
	if spec.OnStderrLine != nil {
		if epr, epw, err = os.Pipe(); err != nil {
			pr.Close()
			pw.Close()
			return Result{ExitCode: -1, Err: fmt.Errorf("creating the error pipe: %w", err)}
		}
		cmd.Stderr = epw
		errOut = newSink(spec.StderrOutput, spec.OnStderrLine, spec.Lines)
	}
	closePipes := func() {
		for _, f := range []*os.File{pr, pw, epr, epw} {
			if f != nil {
				f.Close()
			}
		}
	}
	marker := newMarker()
	cmd.Env = append(cmd.Env, marker+"=1")
	g := startGuard(marker)
	if g != nil {
		cmd.SysProcAttr = sysProcAttr(g.pgid())
		defer g.stop()
	}
	if err := cmd.Start(); err != nil {
		closePipes()
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.EACCES) {
			return Result{ExitCode: 127, NotFound: true, Err: fmt.Errorf("starting %s: %w", cmd.Path, err)}
		}
		return Result{ExitCode: -1, Err: fmt.Errorf("starting %s: %w", cmd.Path, err)}
	}
	pw.Close() // the child holds its own copy; EOF comes when the group is gone
	if epw != nil {
		epw.Close()
	}

	drained := make(chan struct{})
	go func() {
		defer close(drained)
		if errOut == nil {
			out.copyFrom(pr)
			return
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			errOut.copyFrom(epr)
		}()
		out.copyFrom(pr)
		wg.Wait()
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	pgid := cmd.Process.Pid
	if g != nil {
		pgid = g.pgid()
	}
	res := supervise(ctx, spec, pgid, waited, out, errOut)
	killGroup(pgid, syscall.SIGKILL) // no orphans
	killMarked(marker)               // nor any that left the group
	select {
	case <-drained:
	case <-time.After(drainWait):
		// A setsid'd descendant still holds a pipe; stop reading.
		pr.Close()
		if epr != nil {
			epr.Close()
		}
		<-drained
	}
	pr.Close()
	out.flush()
	res.Tail = out.tail()
	if errOut != nil {
		epr.Close()
		errOut.flush()
		res.StderrTail = errOut.tail()
	}
	return res
}

// command builds the exec.Cmd, resolving the program first so that a missing
// binary is reported as such rather than as a generic start failure.
func command(spec Spec) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	switch {
	case spec.Shell != "":
		cmd = exec.Command("/bin/sh", "-c", spec.Shell)
	case len(spec.Args) > 0:
		path, err := exec.LookPath(spec.Args[0])
		if err != nil {
			return nil, fmt.Errorf("command %q: %w", spec.Args[0], err)
		}
		cmd = exec.Command(path, spec.Args[1:]...)
	default:
		return nil, errors.New("no command given")
	}
	cmd.Dir = spec.Dir
	// Without a parent git's GIT_DIR and the like: git in the child's
	// working directory (a phase's worktree) must find that worktree.
	cmd.Env = append(gitenv.WithoutLocation(os.Environ()), spec.Env...)
	cmd.Stdin = spec.Stdin
	cmd.SysProcAttr = sysProcAttr(0)
	// Wait must not block on an agent that never reads its stdin.
	cmd.WaitDelay = time.Second
	return cmd, nil
}

// supervise waits for the process, enforcing the timeouts, the context and
// the hard stop on its process group pgid, and turns the wait status into a
// Result.
func supervise(ctx context.Context, spec Spec, pgid int, waited <-chan error, out, errOut *sink) Result {
	var res Result
	var timeout, idle, grace <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	if spec.IdleTimeout > 0 {
		t := time.NewTicker(idleCheck(spec.IdleTimeout))
		defer t.Stop()
		idle = t.C
	}
	done := ctx.Done()
	hard := spec.HardStop
	abort := spec.Abort
	finish := spec.Finish
	stopping := false
	terminate := func() {
		stopping = true
		killGroup(pgid, syscall.SIGTERM)
		t := time.NewTimer(spec.Grace)
		grace = t.C
	}
	// beforeDone is closed when BeforeStop has returned: the SIGTERM
	// waits for it, a hard stop or the process's end does not.
	var beforeDone chan struct{}
	stop := func() {
		if stopping {
			return
		}
		if spec.BeforeStop != nil {
			stopping = true
			beforeDone = make(chan struct{})
			go func(done chan struct{}) {
				defer close(done)
				spec.BeforeStop()
			}(beforeDone)
			return
		}
		terminate()
	}
	for {
		select {
		case <-beforeDone:
			beforeDone = nil
			terminate()
		case err := <-waited:
			fillExit(&res, err)
			if res.Finished {
				res.ExitCode, res.Signaled, res.NotFound, res.Err = 0, false, false, nil
			}
			if stopping && !res.TimedOut && !res.IdleTimedOut && !res.Aborted && !res.Finished {
				res.Canceled = true
			}
			return res
		case <-finish:
			finish = nil
			if !stopping {
				res.Finished = true
				terminate()
			}
		case <-timeout:
			timeout = nil
			if !stopping {
				res.TimedOut = true
			}
			stop()
		case <-abort:
			abort = nil
			if !stopping {
				res.Aborted = true
			}
			stop()
		case <-idle:
			last := out.lastActivity()
			if errOut != nil {
				if e := errOut.lastActivity(); e.After(last) {
					last = e
				}
			}
			if time.Since(last) >= spec.IdleTimeout {
				idle = nil
				if !stopping {
					res.IdleTimedOut = true
				}
				stop()
			}
		case <-done:
			done = nil
			stop()
		case <-hard:
			hard = nil
			killGroup(pgid, syscall.SIGKILL)
			if !stopping {
				stopping = true
			}
		case <-grace:
			grace = nil
			killGroup(pgid, syscall.SIGKILL)
		}
	}
}

func idleCheck(d time.Duration) time.Duration {
	c := d / 10
	if c < 10*time.Millisecond {
		c = 10 * time.Millisecond
	}
	if c > time.Second {
		c = time.Second
	}
	return c
}

func fillExit(res *Result, err error) {
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signaled = true
			res.ExitCode = -1
		}
	case errors.Is(err, exec.ErrWaitDelay):
		res.ExitCode = 0 // exited; only stdin copying was cut short
	default:
		res.ExitCode = -1
		res.Err = fmt.Errorf("waiting for the process: %w", err)
	}
	if res.ExitCode == 127 {
		res.NotFound = true
	}
}

// killGroup signals the whole process group; a group that is already gone is
// not an error.
func killGroup(pid int, sig syscall.Signal) {
	_ = syscall.Kill(-pid, sig)
}

// sink fans the output out to the writer, the line callback and the tail.
type sink struct {
	w      io.Writer
	onLine func(string)
	lines  func() LineMode

	mu       sync.Mutex
	ring     []byte // last TailSize bytes
	partial  []byte // the current unterminated line
	activity time.Time
}

// maxLine bounds a line handed to OnLine: a megabyte without a newline is
// split rather than buffered.
const maxLine = 8 << 10

func newSink(w io.Writer, onLine func(string), lines func() LineMode) *sink {
	return &sink{w: w, onLine: onLine, lines: lines, activity: time.Now()}
}

// readSize is one read of a process's output: the size of a Linux pipe's
// buffer, so a flood is read, logged and split in as few calls as it can be.
const readSize = 64 << 10

func (s *sink) copyFrom(r io.Reader) {
	buf := make([]byte, readSize)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			s.write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

func (s *sink) write(p []byte) {
	s.mu.Lock()
	s.activity = time.Now()
	s.ring = append(s.ring, p...)
	if len(s.ring) > 2*TailSize {
		s.ring = append(s.ring[:0], s.ring[len(s.ring)-TailSize:]...)
	}
	s.mu.Unlock()
	if s.w != nil {
		_, _ = s.w.Write(p)
	}
	if s.onLine == nil {
		return
	}
	mode := LinesAll
	if s.lines != nil {
		mode = s.lines()
	}
	switch mode {
	case LinesNone:
		s.skipLines(p)
		return
	case LinesLast:
		p = s.lastLine(p)
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			k := min(len(p), maxLine-len(s.partial))
			s.partial = append(s.partial, p[:k]...)
			if len(s.partial) >= maxLine {
				s.emit()
			}
			p = p[k:]
			continue
		}
		s.partial = append(s.partial, p[:i]...)
		s.emit()
		p = p[i+1:]
	}
}

func (s *sink) emit() {
	line := s.partial
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	s.onLine(string(line))
	s.partial = s.partial[:0]
}

func (s *sink) flush() {
	if s.onLine != nil && len(s.partial) > 0 {
		s.emit()
	}
}

func (s *sink) lastActivity() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.activity
}

func (s *sink) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.ring
	if len(t) > TailSize {
		t = t[len(t)-TailSize:]
	}
	return string(t)
}
