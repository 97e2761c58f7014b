package cli

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// endOnHangup ends the UI when its terminal hangs up (SIGHUP: the window
// closed, the tmux server killed, an ssh session dropped), on whatever
// screen. The run itself gets the SIGHUP as an interrupt (runctl.Interrupts
// forwards it: a graceful halt), and runTUI waits for it to end after the
// UI returns, as after a quit. stop ends the watch.
func endOnHangup(prog *tea.Program) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-hup:
			prog.Kill()
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(hup)
			close(done)
		})
	}
}
