package executor_test

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/executor/wiretest"
)

// The attempt's request and result are plain data: nothing in them is a
// func, a chan, an interface (a writer, an error) or an unexported field,
// so they cross the network as they are.
func TestRequestAndResultArePlain(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[executor.Request](), reflect.TypeFor[executor.Result]()} {
		if bad := wiretest.NotPlain(typ); len(bad) > 0 {
			t.Errorf("%s cannot cross the network:\n%s", typ, strings.Join(bad, "\n"))
		}
	}
}

// The check finds what cannot cross: the attempt's local handles, an
// error, a chan, an unexported field.
func TestNotPlainNamesTheLocalHandles(t *testing.T) {
	type bad struct {
		Err   error
		Done  chan struct{}
		Out   io.Writer
		count int
		Ok    []map[string]*executor.Result
	}
	_ = bad{}.count
	got := strings.Join(wiretest.NotPlain(reflect.TypeFor[executor.Attempt]()), "\n")
	for _, want := range []string{"Attempt.Log is a interface", "Attempt.BaseFailing is a func"} {
		if !strings.Contains(got, want) {
			t.Errorf("NotPlain(Attempt) = %q, want it to name %q", got, want)
		}
	}
	got = strings.Join(wiretest.NotPlain(reflect.TypeFor[bad]()), "\n")
	for _, want := range []string{"bad.Err is a interface", "bad.Done is a chan", "bad.Out is a interface", "bad.count is unexported"} {
		if !strings.Contains(got, want) {
			t.Errorf("NotPlain(bad) = %q, want it to name %q", got, want)
		}
	}
	if strings.Contains(got, "bad.Ok") {
		t.Errorf("NotPlain(bad) = %q: a slice of maps of plain results is plain", got)
	}
}

// Every field of a request and of a result comes back from JSON and from
// Temporal's data converter as it went.
func TestRequestAndResultRoundTrip(t *testing.T) {
	var req executor.Request
	wiretest.Fill(&req)
	if req.Agent.Name == "" || req.Gates[0].Command == "" || req.Started.IsZero() || req.Env.AgentRun == 0 {
		t.Fatalf("Fill left fields empty: %+v", req)
	}
	wiretest.RoundTrip(t, req)
	var res executor.Result
	wiretest.Fill(&res)
	if res.Fault == nil || res.Gate == nil || res.AgentSignal == nil || res.Change.Tree == "" || res.Commit == "" {
		t.Fatalf("Fill left fields empty: %+v", res)
	}
	wiretest.RoundTrip(t, res)
}

// A machinery failure crosses as data and still says the disk was full.
func TestFaultOf(t *testing.T) {
	if executor.FaultOf(nil) != nil {
		t.Fatal("FaultOf(nil) is not nil")
	}
	f := executor.FaultOf(io.ErrShortWrite)
	if f.Error() != io.ErrShortWrite.Error() || f.NoSpace {
		t.Fatalf("FaultOf(io.ErrShortWrite) = %+v", f)
	}
	f = executor.FaultOf(fmt.Errorf("writing the prompt: %w", &os.PathError{Op: "write", Path: "p.md", Err: syscall.ENOSPC}))
	if !f.NoSpace || !strings.Contains(f.Message, "no space left on device") {
		t.Fatalf("FaultOf(ENOSPC) = %+v", f)
	}
}
