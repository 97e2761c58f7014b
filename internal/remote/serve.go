package remote

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// Serve runs w as a worker of c's task queue until ctx ends: it makes up
// to maxParallel attempts at once and runs the runs' workflows too (so a
// run goes on while its coordinator is away). On the way out it stops
// taking attempts and gives the running ones stopGrace to end; those that
// do not are made again elsewhere (the workflow's infrastructure retry).
func Serve(ctx context.Context, c Conn, w *Worker, maxParallel int, stopGrace time.Duration) error {
	c = c.WithDefaults()
	cl, err := Dial(ctx, c, w.Identity)
	if err != nil {
		return err
	}
	defer cl.Close()
	if w.Confirm == nil {
		w.Confirm = func(ctx context.Context, details any) error {
			return cl.RecordActivityHeartbeat(ctx, activity.GetInfo(ctx).TaskToken, details)
		}
	}
	if w.Base == nil {
		w.Base = func(ctx context.Context, runID string) (BaseVerdict, error) {
			var v BaseVerdict
			res, err := cl.QueryWorkflow(ctx, WorkflowID(runID), "", QueryBaseFailing)
			if err == nil {
				err = res.Get(&v)
			}
			return v, err
		}
	}
	wk := newWorker(cl, c.TaskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize: max(maxParallel, 1),
		Identity:                           w.Identity,
		WorkerStopTimeout:                  stopGrace,
	})
	wk.RegisterActivityWithOptions(w.Attempt, activity.RegisterOptions{Name: ActivityName})
	if err := wk.Start(); err != nil {
		return fmt.Errorf("starting the worker on task queue %q of %s: %w", c.TaskQueue, c.Address, err)
	}
	<-ctx.Done()
	wk.Stop()
	return nil
}

// newWorker is a worker of taskQueue with the run's workflow registered:
// workers and coordinators alike run it.
func newWorker(cl client.Client, taskQueue string, o worker.Options) worker.Worker {
	wk := worker.New(cl, taskQueue, o)
	wk.RegisterWorkflowWithOptions(RunWorkflow, workflowOptions())
	return wk
}
