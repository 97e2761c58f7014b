package remote

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
)

// ErrTypeUsageLimit is the type of the application error a worker fails its
// activity with when the agent hit a provider's usage limit: non-retryable
// (the same agent will refuse again until the reset), carrying the Limit
// as its details.
const ErrTypeUsageLimit = "AutobuildUsageLimit"

// ErrTypeSetup is the type of the error a worker fails its activity with
// when it cannot prepare the attempt (it cannot fetch the remote, the base
// is missing, its disk is full): retried a few times, on any worker, then
// handed back as the result's InfraError.
const ErrTypeSetup = "AutobuildWorkerSetup"

// ErrTypeBadRequest is a request the worker refuses (a ref outside the
// run's, a base that is no commit id): never retried.
const ErrTypeBadRequest = "AutobuildBadRequest"

// Limit is a usage limit an attempt ran into.
type Limit struct {
	// ResetsAt is when the provider lifts it; zero when unknown.
	ResetsAt time.Time `json:"resets_at"`
	Message  string    `json:"message,omitempty"`
	// Result is the attempt's evidence, for the coordinator to classify
	// and record as it would a local attempt's.
	Result *AttemptResult `json:"result,omitempty"`
}

// UsageLimitError makes the activity's typed, non-retryable error for l.
func UsageLimitError(l Limit) error {
	return temporal.NewNonRetryableApplicationError("usage limit: "+l.Message, ErrTypeUsageLimit, nil, l)
}

// limitOf returns the Limit an activity failed with, or nil.
func limitOf(err error) *Limit {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypeUsageLimit {
		return nil
	}
	var l Limit
	if app.Details(&l) != nil {
		return &Limit{Message: app.Message()}
	}
	return &l
}
