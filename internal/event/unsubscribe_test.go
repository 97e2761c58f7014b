package event

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"
)

// A consumer that stopped reading is let go by Unsubscribe: its delivering
// goroutine ends (synctest fails the test on a goroutine left blocked in the
// bubble), C closes, and the bus forgets it.
func TestUnsubscribeEndsAStalledSubscription(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bus := NewBus()
		stalled := bus.Subscribe(100)
		live := bus.Subscribe(100)
		for range 3 {
			bus.Emit(Event{Kind: PhaseStarted, PhaseID: "1"})
		}
		synctest.Wait()
		stalled.Unsubscribe()
		stalled.Unsubscribe() // twice is fine
		synctest.Wait()
		for range stalled.C {
		}
		bus.mu.Lock()
		require.Equal(t, []*Subscription{live}, bus.subs)
		bus.mu.Unlock()

		bus.Emit(Event{Kind: RunComplete})
		bus.Close()
		n := 0
		for range live.C {
			n++
		}
		require.Equal(t, 4, n, "the other subscriber gets everything")
	})
}

// SubscribeContext ends the subscription with its context.
func TestSubscribeContextEndsWithItsContext(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bus := NewBus()
		ctx, cancel := context.WithCancel(context.Background())
		sub := bus.SubscribeContext(ctx, 100)
		bus.Emit(Event{Kind: PhaseStarted, PhaseID: "1"})
		cancel()
		synctest.Wait()
		for range sub.C {
		}
		bus.mu.Lock()
		require.Empty(t, bus.subs)
		bus.mu.Unlock()
	})
}
