package runctl

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// stubEngine stands in for engine.Run: each run is the next function of
// runs, and sees the context and hard stop the controller gave it.
type stubEngine struct {
	mu   sync.Mutex
	runs []func(ctx context.Context, cfg engine.Config) (engine.Result, error)
}

func (s *stubEngine) run(ctx context.Context, cfg engine.Config) (engine.Result, error) {
	s.mu.Lock()
	f := s.runs[0]
	s.runs = s.runs[1:]
	s.mu.Unlock()
	return f(ctx, cfg)
}

// halts is a run that starts and halts at once.
func halts(_ context.Context, cfg engine.Config) (engine.Result, error) {
	cfg.Sink.Emit(event.Event{Kind: event.RunStarted})
	cfg.Sink.Emit(event.Event{Kind: event.RunHalted})
	return engine.Result{Status: state.RunHalted}, nil
}

// stuckStarting is a run that never gets past its start (a git command
// waiting on a lock) until its context ends, and then fails as the engine
// does; entered is closed once it is running.
func stuckStarting(entered chan struct{}) func(context.Context, engine.Config) (engine.Result, error) {
	return func(ctx context.Context, _ engine.Config) (engine.Result, error) {
		close(entered)
		<-ctx.Done()
		return engine.Result{}, &exitcode.Error{Code: exitcode.Interrupted,
			Err: errors.New("interrupted before any phase started")}
	}
}

// drain reads a run's events to the end.
func drain(t *testing.T, ch <-chan event.Event) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatal("the run's events never ended")
		}
	}
}

// startAsync calls Start on its own goroutine, as the model's tea.Cmd does.
func startAsync(c *Controller, mode Mode) <-chan error {
	errc := make(chan error, 1)
	go func() {
		_, err := c.Start(context.Background(), mode)
		errc <- err
	}()
	return errc
}

func requireStopped(t *testing.T, errc <-chan error) {
	t.Helper()
	select {
	case err := <-errc:
		require.Equal(t, exitcode.Interrupted, exitcode.Of(err), "%v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("the start was not stopped")
	}
}

// A ctrl+c while `r` is starting the run stops that start, whether it
// reaches the controller while the engine is starting or before the model's
// Start does (both are tea.Cmds: nothing orders them); it is never spent on
// the run before, which has ended.
func TestControllerInterruptStopsAStartingRun(t *testing.T) {
	t.Parallel()
	for _, early := range []bool{false, true} {
		name := "during the start"
		if early {
			name = "before the start"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			entered := make(chan struct{})
			stub := &stubEngine{runs: []func(context.Context, engine.Config) (engine.Result, error){halts, stuckStarting(entered)}}
			c := NewController(Options{Run: stub.run})
			ch, err := c.Start(context.Background(), New)
			require.NoError(t, err)
			drain(t, ch)

			var errc <-chan error
			if early {
				c.Interrupt()
				errc = startAsync(c, Resume)
			} else {
				errc = startAsync(c, Resume)
				<-entered
				c.Interrupt()
			}
			requireStopped(t, errc)
			res, err := c.Wait()
			require.Empty(t, res.Status)
			require.Error(t, err)
		})
	}
}

// Two interrupts before a start both reach the run: a graceful halt, then
// the hard stop.
func TestControllerTwoEarlyInterruptsKill(t *testing.T) {
	t.Parallel()
	killed := make(chan bool, 1)
	stub := &stubEngine{runs: []func(context.Context, engine.Config) (engine.Result, error){halts,
		func(ctx context.Context, cfg engine.Config) (engine.Result, error) {
			select {
			case <-cfg.HardStop:
				killed <- ctx.Err() != nil
			case <-time.After(5 * time.Second):
				killed <- false
			}
			return engine.Result{}, &exitcode.Error{Code: exitcode.Interrupted, Err: errors.New("killed")}
		}}}
	c := NewController(Options{Run: stub.run})
	ch, err := c.Start(context.Background(), New)
	require.NoError(t, err)
	drain(t, ch)
	c.Interrupt()
	c.Interrupt()
	requireStopped(t, startAsync(c, Fresh))
	require.True(t, <-killed, "halted, then killed")
}

// A signal from outside between runs (the halt screen showing) is not kept
// for the run `r` starts later; during a run it halts it, and a second one
// kills it.
func TestControllerSignalBetweenRunsIsNotKept(t *testing.T) {
	t.Parallel()
	running := make(chan context.Context, 1)
	stub := &stubEngine{runs: []func(context.Context, engine.Config) (engine.Result, error){halts,
		func(ctx context.Context, cfg engine.Config) (engine.Result, error) {
			cfg.Sink.Emit(event.Event{Kind: event.RunStarted})
			running <- ctx
			<-ctx.Done()
			<-cfg.HardStop
			cfg.Sink.Emit(event.Event{Kind: event.RunInterrupted})
			return engine.Result{Status: state.RunInterrupted}, nil
		}}}
	c := NewController(Options{Run: stub.run})
	ch, err := c.Start(context.Background(), New)
	require.NoError(t, err)
	drain(t, ch)

	c.Signalled()
	ch, err = c.Start(context.Background(), Resume)
	require.NoError(t, err)
	ctx := <-running
	require.NoError(t, ctx.Err(), "the resumed run goes on")
	c.Signalled()
	require.Error(t, ctx.Err(), "halting")
	c.Signalled()
	drain(t, ch)
	res, err := c.Wait()
	require.NoError(t, err)
	require.Equal(t, state.RunInterrupted, res.Status)
}
