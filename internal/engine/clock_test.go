package engine

import (
	"context"
	"sync"
	"time"
)

// fakeClock is an injected clock for engine runs with real processes:
// sleeping moves it on at once, and records the wait.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
	// onSleep, when set, runs at each sleep (a test's Ctrl-C).
	onSleep func()
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 11, 24, 1, 28, 0, 0, time.Local)}
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.slept = append(c.slept, d)
	hook := c.onSleep
	c.mu.Unlock()
	if hook != nil {
		hook()
	}
}

func (c *fakeClock) waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}
