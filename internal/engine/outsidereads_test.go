package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// Callers one after the other each get a read of their own.
func TestSharedReadsOneAfterTheOther(t *testing.T) {
	t.Parallel()
	s := newSharedReads()
	var n atomic.Int32
	for i := 1; i <= 3; i++ {
		st := s.read(func() outsideState { return outsideState{status: []string{string(rune('0' + n.Add(1)))}} })
		require.Equal(t, []string{string(rune('0' + i))}, st.status)
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
	read := func() outsideState {
		n := reads.Add(1)
		if n == 1 {
			close(entered)
			<-release
		}
		return outsideState{status: []string{string(rune('0' + n))}, ok: true}
	}
	first := make(chan outsideState)
	go func() { first <- s.read(read) }()
	<-entered

	const waiters = 5
	var wg sync.WaitGroup
	got := make([]outsideState, waiters)
	for i := range waiters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = s.read(read)
		}()
	}
	for s.waitingFor() < waiters {
		runtime.Gosched()
	}
	close(release)
	require.Equal(t, []string{"1"}, (<-first).status)
	wg.Wait()
	require.EqualValues(t, 2, reads.Load(), "the waiters shared one read")
	for _, st := range got {
		require.Equal(t, []string{"2"}, st.status)
	}
}
