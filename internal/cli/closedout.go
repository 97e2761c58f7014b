package cli

import (
	"errors"
	"io"
	"sync/atomic"
	"syscall"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/printer"
)

// closedOutput is the standard output of a headless run, watched for its
// reader going away (`autobuild … --no-tui | head -3`, a CI log
// collector that died). The first write that finds the pipe closed calls
// onClose (a graceful halt, as a closed terminal's SIGHUP is); that write
// and every later one are dropped, so nothing else stops on them. Go
// delivers no SIGPIPE death for it while the run watches for SIGPIPE
// (runHeadless): the write returns EPIPE instead.
type closedOutput struct {
	w       io.Writer
	closed  atomic.Bool
	onClose func()
}

func (c *closedOutput) Write(p []byte) (int, error) {
	if c.closed.Load() {
		return len(p), nil
	}
	n, err := c.w.Write(p)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		if c.closed.CompareAndSwap(false, true) {
			c.onClose()
		}
		return len(p), nil
	}
	return n, err
}

// jsonPrinter prints JSON lines to w.
func jsonPrinter(w io.Writer) func(event.Event) { return printer.NewJSON(w).Print }

// plainPrinter prints plain lines to w.
func plainPrinter(verbose bool) func(io.Writer) func(event.Event) {
	return func(w io.Writer) func(event.Event) { return (&printer.Plain{W: w, Verbose: verbose}).Print }
}
