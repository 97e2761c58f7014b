// Package remote runs a run's attempts on other machines through Temporal:
// the coordinator (the autobuild that runs the plan) sends each attempt as
// a plain request to one workflow per run, the workflow runs it as an
// activity on an `autobuild worker`, and the worker returns a plain result
// that carries the commit the attempt made. Nothing here knows the engine:
// the request and the result are data, and git crosses the network only as
// refs under refs/autobuild/<run-id>/ on a remote both sides can reach.
// docs/remote.md is the user's side of it.
package remote

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// AttemptRequest is one attempt of a phase, as it crosses the network:
// the engine's plain executor.Request (no writer, no function, no local
// path of the coordinator's that the worker uses) and what the workers
// need besides: the remote and the refs. The worker checks Base out from
// BaseRef of Remote, runs the agent with Prompt and then the gates, and
// pushes what it made to TryRef (its try's own ref under ResultRef).
// Session is an ACP session to continue, only meaningful on the worker
// that made it.
type AttemptRequest struct {
	executor.Request
	// Remote is the git URL every worker fetches from and pushes to.
	Remote string `json:"remote"`
	// BaseRef holds Base on Remote (the coordinator pushed it); ResultRef
	// is what the attempt's result refs start with (the coordinator sets
	// it), and TryRef, under it, is where the worker that makes this try
	// pushes its commit: the workflow sets it for each try (TryRef), so
	// no two tries ever push to one ref.
	BaseRef   string `json:"base_ref"`
	ResultRef string `json:"result_ref"`
	TryRef    string `json:"try_ref,omitempty"`
	// BasePending says the run's base check (--allow-red-base) had not
	// ended when the attempt was sent: KnownFailing is empty, and the
	// worker asks the run's workflow for the base's failing tests
	// (QueryBaseFailing) when a gate fails, waiting for them as a local
	// attempt's gates wait for the check.
	BasePending bool `json:"base_pending,omitempty"`
	// SimScenario is the simulated agent's scenario file's text (its path
	// in Env is the coordinator's): the worker plays it from a copy.
	SimScenario string `json:"sim_scenario,omitempty"`
	// HeartbeatTimeout is how long the server waits for a worker's
	// heartbeat before it takes the worker as dead and makes the attempt
	// again elsewhere (DefaultHeartbeatTimeout when zero).
	HeartbeatTimeout time.Duration `json:"heartbeat_timeout,omitempty"`
	// InfraAttempts bounds how often the attempt is made again after its
	// worker died or its machinery failed (DefaultInfraAttempts when
	// zero). These are not the phase's retry: that one is the engine's.
	InfraAttempts int `json:"infra_attempts,omitempty"`
	// WaitLimit is the longest wait for a usage limit's reset that the
	// workflow waits out itself (a durable timer) before it makes the
	// attempt again; a limit further away, or any limit when it is zero,
	// comes back as Result.Limit for the coordinator to decide (another
	// agent, or halt).
	WaitLimit time.Duration `json:"wait_limit,omitempty"`
}

// Defaults of a request's zero fields.
const (
	DefaultHeartbeatTimeout = 30 * time.Second
	DefaultInfraAttempts    = 3
)

// Key names the attempt in its run: the workflow update's id, so a
// coordinator that asks again (after a crash, --resume) re-attaches to the
// attempt instead of starting it twice.
func (r AttemptRequest) Key() string {
	return fmt.Sprintf("%s/%d", state.FileIDOf(r.PhaseID), r.Seq)
}

// Validate refuses a request a worker cannot act on safely.
func (r AttemptRequest) Validate() error {
	var errs []error
	if r.RunID == "" || r.PhaseID == "" || r.Seq < 1 {
		errs = append(errs, errors.New("a request needs a run id, a phase id and a sequence number"))
	}
	if r.Remote == "" {
		errs = append(errs, errors.New("a request needs a remote"))
	} else if strings.HasPrefix(r.Remote, "-") {
		// The worker's git takes it as an argument (fetch, push): it would
		// read it as an option. NormalizeRemote refuses it on the
		// coordinator; a request comes from whoever reaches the server.
		errs = append(errs, fmt.Errorf("the remote %q starts with a dash: git would read it as an option", r.Remote))
	}
	if !isCommitID(r.Base) {
		errs = append(errs, fmt.Errorf("base commit %q is not a full commit id", r.Base))
	}
	for _, ref := range []string{r.BaseRef, r.ResultRef} {
		if err := CheckRunRef(r.RunID, ref); err != nil {
			errs = append(errs, err)
		}
	}
	if r.TryRef != "" {
		if err := CheckTryRef(r.RunID, r.ResultRef, r.TryRef); err != nil {
			errs = append(errs, err)
		}
	}
	if r.Timeout <= 0 {
		errs = append(errs, errors.New("a request needs a timeout"))
	}
	return errors.Join(errs...)
}

// AttemptResult is what a worker hands back: the engine's plain
// executor.Result (the evidence the classifier reads, what the phase runner
// records, the commit to land: Commit, pushed to Ref, and a failed
// attempt's Patch, capped by MaxPatch; Fault is a failure of
// the machinery, the worker's git, its disk, every worker dying, after
// InfraAttempts tries: not the agent's doing) and what only a remote
// attempt has besides.
type AttemptResult struct {
	executor.Result
	// Ref is the ref the worker pushed Commit to (the try's TryRef): the
	// coordinator fetches exactly that one.
	Ref string `json:"ref,omitempty"`
	// LogTail is the end of the attempt's log on the worker.
	LogTail string `json:"log_tail,omitempty"`
	// Worker names the worker that made the attempt (its identity).
	Worker string `json:"worker,omitempty"`
	// Limit is set when the agent hit a usage limit the workflow did not
	// wait out.
	Limit *Limit `json:"limit,omitempty"`
	// Tries is how many times the activity was started (worker deaths
	// included).
	Tries int `json:"tries,omitempty"`
}

// MaxPatch caps a failed attempt's patch in the result: Temporal payloads
// are limited (2 MB by default) and the report shows only the start.
const MaxPatch = 256 << 10

// Progress is what a worker's heartbeats carry, for the coordinator to
// show: who runs the attempt, how far it is.
type Progress struct {
	Worker    string `json:"worker"`
	Step      string `json:"step"`
	ToolCalls int    `json:"tool_calls,omitempty"`
	LastLine  string `json:"last_line,omitempty"`
}

// isCommitID says whether s is a full hexadecimal object id (SHA-1 or
// SHA-256).
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
