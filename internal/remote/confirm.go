package remote

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/temporal"
)

// Confirm asks the server, with a heartbeat it waits for, whether the
// running attempt is still this worker's. Serve sets it; nil (the SDK's
// test environment) takes every attempt as the worker's own.
type Confirm func(ctx context.Context, details any) error

// confirmEvery is how often a worker that cannot reach the server asks
// again before it pushes.
const confirmEvery = time.Second

// confirmCall bounds one question to the server.
const confirmCall = 10 * time.Second

// errTakenOver is the answer of a server that no longer counts the
// attempt as this worker's: it timed out (the worker was cut off longer
// than the heartbeat timeout) and is made again elsewhere.
var errTakenOver = errors.New("the attempt is no longer this worker's: it timed out on the server and is made again elsewhere")

// errCanceled is the answer for an attempt the coordinator canceled.
var errCanceled = errors.New("the attempt was canceled")

// stillOurs waits until the server says the attempt is still this
// worker's: before a worker pushes its work, so that a worker cut off from
// the server, whose attempt was made again elsewhere meanwhile, pushes
// nothing over the other's result nor after the run. While the server
// cannot be reached it asks again every confirmEvery, as long as ctx
// lasts.
func (w *Worker) stillOurs(ctx context.Context, book *progressBook) error {
	if w.Confirm == nil {
		return nil
	}
	every := w.confirmEvery
	if every <= 0 {
		every = confirmEvery
	}
	for {
		cctx, cancel := context.WithTimeout(ctx, confirmCall)
		err := w.Confirm(cctx, book.snapshot())
		cancel()
		switch {
		case err == nil:
			return nil
		case temporal.IsCanceledError(err):
			return errCanceled
		case gone(err):
			return errTakenOver
		case ctx.Err() != nil:
			return fmt.Errorf("waiting to reach the server before pushing: %w", ctx.Err())
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting to reach the server before pushing: %w", ctx.Err())
		case <-time.After(every):
		}
	}
}

// gone says whether a heartbeat's error means the attempt is not this
// worker's any more: the server does not know it, or no longer knows the
// namespace it was made in (a server that kept nothing restarted and
// registered its namespaces again, under new ids).
func gone(err error) bool {
	var notFound *serviceerror.NotFound
	var nsNotFound *serviceerror.NamespaceNotFound
	return errors.As(err, &notFound) || errors.As(err, &nsNotFound)
}
