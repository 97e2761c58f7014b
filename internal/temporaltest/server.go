package temporaltest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadyTimeout bounds how long a server may take from start to ready.
const ReadyTimeout = 90 * time.Second

// buildTimeout bounds a cold build of the dev server (downloads included).
const buildTimeout = 15 * time.Minute

// Config is how a server starts; the zero Config is a fresh in-memory server
// with the namespace "default" on a free port.
type Config struct {
	Namespaces []string // registered before start; default "default"
	DBFile     string   // keep the state in this sqlite file (to restart a server with its history)
	Port       int      // 0 picks a free one
}

// Server is a running dev server.
type Server struct {
	HostPort string // the frontend, for clients and workers: 127.0.0.1:PORT
	Port     int
	cmd      *exec.Cmd
	stdin    io.Closer
	done     chan struct{} // closed when the process has been waited for
	logPath  string
}

// Start starts a dev server for t and returns its frontend's address. The
// server is stopped when t ends.
func Start(t testing.TB) string {
	t.Helper()
	return StartServer(t, Config{}).HostPort
}

// StartServer starts a dev server as c says; it is stopped when t ends.
func StartServer(t testing.TB, c Config) *Server {
	t.Helper()
	s, err := launchRetrying(t, Binary(t), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

// launchTries bounds the starts of one server whose ports were taken.
const launchTries = 3

// launchRetrying launches the server, again when it could not bind a port:
// the dev server picks free ports, then binds them, and a process started
// meanwhile (another test's server, a proxy) may have taken one.
func launchRetrying(t testing.TB, bin string, c Config) (*Server, error) {
	for try := 1; ; try++ {
		s, err := launch(t, bin, c)
		if err == nil || try == launchTries || !strings.Contains(err.Error(), "address already in use") {
			return s, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Binary returns the built dev server (building it only under
// AUTOBUILD_TEMPORAL_BUILD=1). It skips t when there is none and it cannot
// or may not be built here, and fails t instead under
// AUTOBUILD_TEMPORAL_REQUIRED=1.
func Binary(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	b := defaultBuilder()
	path, skip, err := b.binary(ctx)
	if msg, fatal := outcome(b.getenv(EnvRequired) == "1", skip, err); fatal != nil {
		t.Fatal(fatal)
	} else if msg != "" {
		t.Skip(msg)
	}
	return path
}

// outcome decides what a test does with binary's answer: skip with msg, or
// fail with fatal. When the server is required nothing skips.
func outcome(required bool, skip string, err error) (msg string, fatal error) {
	switch {
	case err != nil:
		return "", err
	case skip != "" && required:
		return "", fmt.Errorf("%s=1, so the Temporal dev server must be there: %s", EnvRequired, skip)
	case skip != "":
		return "temporaltest: " + skip, nil
	}
	return "", nil
}

func launch(t testing.TB, bin string, c Config) (*Server, error) {
	dir := t.TempDir()
	args := []string{"--port", strconv.Itoa(c.Port), "--exit-with-stdin"}
	for _, ns := range c.Namespaces {
		args = append(args, "--namespace", ns)
	}
	if c.DBFile != "" {
		args = append(args, "--db-file", c.DBFile)
	}
	s := &Server{done: make(chan struct{}), logPath: filepath.Join(dir, "temporal-dev.log")}
	logFile, err := os.Create(s.logPath)
	if err != nil {
		return nil, fmt.Errorf("dev server log: %w", err)
	}
	defer logFile.Close() // the child has its own copy
	cmd := exec.Command(bin, args...)
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// The server stops when its stdin closes: if this test binary dies, the
	// kernel closes the pipe and the server does not outlive it.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("dev server stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("dev server stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the Temporal dev server %s: %w", bin, err)
	}
	s.cmd, s.stdin = cmd, stdin
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if hp, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				ready <- strings.TrimSpace(hp)
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	waitErr := make(chan error, 1)
	go func() {
		waitErr <- cmd.Wait()
		close(s.done)
	}()

	select {
	case hp := <-ready:
		s.HostPort = hp
	case err := <-waitErr:
		return nil, fmt.Errorf("the Temporal dev server exited before it was ready (%v):\n%s", err, s.logTail())
	case <-time.After(ReadyTimeout):
		s.Stop()
		return nil, fmt.Errorf("the Temporal dev server was not ready within %s:\n%s", ReadyTimeout, s.logTail())
	}
	_, port, err := net.SplitHostPort(s.HostPort)
	if err == nil {
		s.Port, err = strconv.Atoi(port)
	}
	if err != nil {
		s.Stop()
		return nil, fmt.Errorf("the Temporal dev server's ready line names %q: %w", s.HostPort, err)
	}
	conn, err := net.DialTimeout("tcp", s.HostPort, 5*time.Second)
	if err != nil {
		s.Stop()
		return nil, fmt.Errorf("the Temporal dev server said ready but %s does not accept connections: %w", s.HostPort, err)
	}
	conn.Close()
	return s, nil
}

// Stop stops the server's process group (SIGTERM, then SIGKILL after ten
// seconds) and waits for it. Stopping a stopped server does nothing.
func (s *Server) Stop() {
	select {
	case <-s.done:
		return
	default:
	}
	pgid := s.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-s.done
	}
	_ = s.stdin.Close()
}

// Kill ends the server at once (SIGKILL), as a crash would.
func (s *Server) Kill() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	_ = s.stdin.Close()
}

// Log returns what the server wrote to stderr so far.
func (s *Server) Log() string {
	data, err := os.ReadFile(s.logPath)
	if err != nil {
		return ""
	}
	return string(data)
}

func (s *Server) logTail() string {
	text := strings.TrimSpace(s.Log())
	if text == "" {
		return "(no output)"
	}
	lines := strings.Split(text, "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}
