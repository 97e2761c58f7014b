package tui

import (
	"context"
	"sync/atomic"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// blockingController blocks every call until release is closed, like an
// engine that is slow to answer.
type blockingController struct {
	release chan struct{}
	calls   atomic.Int32
}

func (b *blockingController) Start(context.Context, runctl.Mode) (<-chan event.Event, error) {
	b.calls.Add(1)
	<-b.release
	ch := make(chan event.Event)
	close(ch)
	return ch, nil
}

func (b *blockingController) Interrupt() { b.calls.Add(1); <-b.release }

func (b *blockingController) Snapshot() (*state.Snapshot, error) {
	b.calls.Add(1)
	<-b.release
	return nil, nil
}
