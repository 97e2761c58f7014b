package runctl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Interrupts turns the first Ctrl-C, SIGTERM or SIGHUP (the terminal
// closed) into a graceful halt (ctx is canceled) and the second into a hard
// stop (hard is closed: every process killed at once), saying so on w.
// stop ends the watch.
func Interrupts(parent context.Context, w io.Writer) (ctx context.Context, hard <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	hardc := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, Watched(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)...)
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-sigs:
				n++
				if n == 1 {
					fmt.Fprintln(w, "\nautobuild: interrupted: stopping running phases gracefully (Ctrl-C again to kill them now)")
					cancel()
				} else {
					fmt.Fprintln(w, "autobuild: killing running phases")
					close(hardc)
					// A third Ctrl-C gets the default action and ends
					// autobuild itself, should it hang after all; the
					// phases' guards take their processes down with it.
					signal.Stop(sigs)
					return
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, hardc, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// Watched is sigs without those this process was started ignoring: a run
// under nohup (SIGHUP ignored) or a background job of a script (SIGINT
// ignored) goes on when the terminal closes, as asked. Go's signal.Notify
// would take an ignored signal back (its handler replaces SIG_IGN).
func Watched(sigs ...os.Signal) []os.Signal {
	out := make([]os.Signal, 0, len(sigs))
	for _, s := range sigs {
		if !signal.Ignored(s) {
			out = append(out, s)
		}
	}
	return out
}

// ForwardSignals passes the interrupts of Interrupts (sigCtx ending, then
// hard closing) on to the controller's live run until stop is called. A
// front end that reads Ctrl-C as a key (the TUI, in raw mode) still gets a
// SIGTERM from outside this way.
func (c *Controller) ForwardSignals(sigCtx context.Context, hard <-chan struct{}) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-sigCtx.Done():
			c.Signalled()
		case <-done:
			return
		}
		select {
		case <-hard: // a second signal
			c.Signalled()
		case <-done:
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}
