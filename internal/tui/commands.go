package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// maxBatch bounds how many events one eventsMsg carries, so a flood still
// lets key presses through between batches.
const maxBatch = 512

// Every function here returns a tea.Cmd: the slow or blocking part runs in
// the Cmd's goroutine, never in Update, and only its result (a message)
// touches the model.

func startCmd(ctx context.Context, c runctl.Control, mode runctl.Mode, gen int) tea.Cmd {
	return func() tea.Msg {
		ch, err := c.Start(ctx, mode)
		if err != nil {
			return startFailedMsg{gen: gen, err: err}
		}
		return startedMsg{gen: gen, ch: ch}
	}
}

// waitEvents waits for the next event, then takes everything else already
// queued (up to maxBatch) without waiting.
func waitEvents(ch <-chan event.Event, gen int) tea.Cmd {
	return func() tea.Msg {
		e, ok := <-ch
		if !ok {
			return eventsMsg{gen: gen, closed: true}
		}
		msg := eventsMsg{gen: gen, events: []event.Event{e}}
		for len(msg.events) < maxBatch {
			select {
			case e, ok := <-ch:
				if !ok {
					msg.closed = true
					return msg
				}
				msg.events = append(msg.events, e)
			default:
				return msg
			}
		}
		return msg
	}
}

func snapshotCmd(c runctl.Control, gen int) tea.Cmd {
	return func() tea.Msg {
		snap, err := c.Snapshot()
		return snapshotMsg{gen: gen, snap: snap, err: err}
	}
}

func interruptCmd(c runctl.Control) tea.Cmd {
	return func() tea.Msg {
		c.Interrupt()
		return nil
	}
}

func waitWatch(ch <-chan watch.Update) tea.Cmd {
	return func() tea.Msg {
		u, ok := <-ch
		if !ok {
			return watchMsg{closed: true}
		}
		return watchMsg{update: u}
	}
}

func tickCmd(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return tickMsg{} })
}
