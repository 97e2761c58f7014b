package temporaltest

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	grpcOK       = "0"
	grpcNotFound = "5"
)

func TestStartServesTheDefaultNamespace(t *testing.T) {
	hostport := Start(t)
	if st, err := describeNamespace(hostport, "default"); err != nil || st != grpcOK {
		t.Fatalf("DescribeNamespace(default) = status %q, %v; want %s", st, err, grpcOK)
	}
	if st, err := describeNamespace(hostport, "no-such-namespace"); err != nil || st != grpcNotFound {
		t.Fatalf("DescribeNamespace(no-such-namespace) = status %q, %v; want %s (NotFound)", st, err, grpcNotFound)
	}
}

func TestSecondStartReusesTheBinary(t *testing.T) {
	first := Binary(t)
	before, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	second := Binary(t)
	after, err := os.Stat(second)
	if err != nil {
		t.Fatal(err)
	}
	if first != second || !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Fatalf("second Binary = %s (%v), first %s (%v): want the same file, not rebuilt", second, after.ModTime(), first, before.ModTime())
	}

	// Two servers at once, each with its own namespaces and port.
	servers := make([]*Server, 2)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() { servers[i] = StartServer(t, Config{Namespaces: []string{"alpha", "beta"}}) })
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if servers[0].HostPort == servers[1].HostPort {
		t.Fatalf("both servers on %s", servers[0].HostPort)
	}
	for _, s := range servers {
		for _, ns := range []string{"alpha", "beta"} {
			if st, err := describeNamespace(s.HostPort, ns); err != nil || st != grpcOK {
				t.Errorf("%s: DescribeNamespace(%s) = status %q, %v", s.HostPort, ns, st, err)
			}
		}
		if st, _ := describeNamespace(s.HostPort, "default"); st != grpcNotFound {
			t.Errorf("%s: namespace default registered though not asked for (status %q)", s.HostPort, st)
		}
	}
}

func TestStopEndsTheServer(t *testing.T) {
	s := StartServer(t, Config{})
	pid := s.cmd.Process.Pid
	s.Stop()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process %d still there after Stop (kill 0: %v)", pid, err)
	}
	if conn, err := net.DialTimeout("tcp", s.HostPort, time.Second); err == nil {
		conn.Close()
		t.Fatalf("%s still accepts connections after Stop", s.HostPort)
	}
	s.Stop() // a second Stop is harmless
}

func TestServerStopsWhenItsStdinCloses(t *testing.T) {
	s := StartServer(t, Config{})
	_ = s.stdin.Close() // what the kernel does when the test binary dies
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the dev server did not stop within 20s of its stdin closing")
	}
}

func TestRestartKeepsStateInADBFile(t *testing.T) {
	db := t.TempDir() + "/temporal.db"
	s := StartServer(t, Config{DBFile: db, Namespaces: []string{"kept"}})
	port := s.Port
	s.Stop()
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("no database file after the server stopped: %v", err)
	}
	// The second server registers another namespace; "kept" comes from the file.
	s2 := StartServer(t, Config{DBFile: db, Port: port, Namespaces: []string{"other"}})
	if s2.HostPort != s.HostPort {
		t.Fatalf("restarted on %s, asked for %s", s2.HostPort, s.HostPort)
	}
	if st, err := describeNamespace(s2.HostPort, "kept"); err != nil || st != grpcOK {
		t.Fatalf("after restart DescribeNamespace(kept) = %q, %v", st, err)
	}
}

// A server that could not bind a port it picked (another process took it
// meanwhile) is started again; any other failure is not.
func TestLaunchRetriesATakenPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dir := t.TempDir()
	tries := filepath.Join(dir, "tries")
	// The first start fails as the dev server does on a taken port; the
	// second says ready on a port that listens.
	bin := filepath.Join(dir, "fake-dev")
	script := "#!/bin/sh\necho x >> " + tries + "\nif [ $(wc -l < " + tries + ") -lt 2 ]; then\n" +
		"  echo 'listen tcp 127.0.0.1:1: bind: address already in use' >&2; exit 1\nfi\n" +
		"echo ready " + l.Addr().String() + "\nread _\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := launchRetrying(t, bin, Config{})
	if err != nil {
		t.Fatalf("not started again after a taken port: %v", err)
	}
	s.Stop()
	if b, _ := os.ReadFile(tries); strings.Count(string(b), "x") != 2 {
		t.Fatalf("started %d times, want 2", strings.Count(string(b), "x"))
	}

	other := filepath.Join(dir, "broken-dev")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho 'no such namespace' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := launchRetrying(t, other, Config{}); err == nil || !strings.Contains(err.Error(), "no such namespace") {
		t.Fatalf("another failure: %v", err)
	}
}
