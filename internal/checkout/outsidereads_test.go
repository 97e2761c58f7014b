package checkout

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Callers one after the other each get a read of their own.
func TestSharedReadsOneAfterTheOther(t *testing.T) {
	t.Parallel()
	s := newSharedReads()
	var n atomic.Int32
	for i := 1; i <= 3; i++ {
		st := s.read(context.Background(), func(context.Context) State {
			return State{Status: []string{strconv.Itoa(int(n.Add(1)))}}
		})
		require.Equal(t, []string{strconv.Itoa(i)}, st.Status)
	}
}

// Callers who ask while a read is under way share the next read, and none
// of them gets the read that was under way when it asked.
func TestSharedReadsServeWaitersWithTheNextRead(t *testing.T) {
	t.Parallel()
	s := newSharedReads()
	var reads atomic.Int32
	release := make(chan struct{})
	entered := make(chan struct{})
	read := func(context.Context) State {
		n := reads.Add(1)
		if n == 1 {
			close(entered)
			<-release
		}
		return State{Status: []string{strconv.Itoa(int(n))}, OK: true}
	}
	first := make(chan State)
	go func() { first <- s.read(context.Background(), read) }()
	<-entered

	const waiters = 5
	var wg sync.WaitGroup
	got := make([]State, waiters)
	for i := range waiters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = s.read(context.Background(), read)
		}()
	}
	for s.waitingFor() < waiters+1 {
		runtime.Gosched()
	}
	close(release)
	require.Equal(t, []string{"1"}, (<-first).Status)
	wg.Wait()
	require.EqualValues(t, 2, reads.Load(), "the waiters shared one read")
	for _, st := range got {
		require.Equal(t, []string{"2"}, st.Status)
	}
}

// A caller whose context ends (Ctrl-C) stops waiting at once; the read it
// waited for goes on for the others, and is stopped when nobody waits.
func TestSharedReadsLetACancelledCallerGo(t *testing.T) {
	t.Parallel()
	s := newSharedReads()
	stopped := make(chan struct{})
	release := make(chan struct{})
	slow := func(ctx context.Context) State {
		select {
		case <-ctx.Done():
			close(stopped)
			return State{}
		case <-release:
			return State{Status: []string{"read"}, OK: true}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	other := make(chan State)
	go func() { other <- s.read(context.Background(), slow) }()
	for s.waitingFor() < 1 {
		runtime.Gosched()
	}
	mine := make(chan State)
	go func() { mine <- s.read(ctx, slow) }()
	for s.waitingFor() < 2 {
		runtime.Gosched()
	}
	cancel()
	select {
	case st := <-mine:
		require.False(t, st.OK, "nothing to compare")
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled caller still waits for the read")
	}
	close(release)
	require.Equal(t, []string{"read"}, (<-other).Status, "the read went on for the caller still waiting")

	// Alone, the cancelled caller's read is stopped.
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan State)
	release = make(chan struct{})
	go func() { done <- s.read(ctx, slow) }()
	for s.waitingFor() < 1 {
		runtime.Gosched()
	}
	cancel()
	require.False(t, (<-done).OK)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the read nobody waits for was not stopped")
	}
}

// Under load every caller gets a read that began after it asked.
func TestSharedReadsNeverServeAnOlderRead(t *testing.T) {
	t.Parallel()
	s := newSharedReads()
	var mu sync.Mutex
	begun := 0
	do := func(context.Context) State {
		mu.Lock()
		begun++
		n := begun
		mu.Unlock()
		time.Sleep(time.Duration(n%3) * 100 * time.Microsecond)
		return State{Status: []string{strconv.Itoa(n)}, OK: true}
	}
	var wg sync.WaitGroup
	var stale atomic.Int32
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				mu.Lock()
				asked := begun
				mu.Unlock()
				st := s.read(context.Background(), do)
				if got, _ := strconv.Atoi(st.Status[0]); got <= asked {
					stale.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	require.Zero(t, stale.Load())
	require.Less(t, begun, 1600, "some callers shared a read")
}
