package line

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/proc"
)

// Verify is when the combination of what lands is verified
// (docs/running.md, "The line stays green").
type Verify string

const (
	// VerifyLanding verifies a phase picked onto a line that moved since
	// it started, on the combined tree, before the line moves (default).
	VerifyLanding Verify = "landing"
	// VerifyOff lands each phase on its own gates' word, as autobuild did
	// before.
	VerifyOff Verify = "off"
)

// ParseVerify reads --verify and autobuild.toml's verify; "" is landing.
func ParseVerify(s string) (Verify, error) {
	switch Verify(s) {
	case "", VerifyLanding:
		return VerifyLanding, nil
	case VerifyOff:
		return VerifyOff, nil
	}
	return "", fmt.Errorf("%q is not a verify mode: landing (the default) or off", s)
}

// verdict is what the gates said of one tree.
type verdict struct {
	// failed is the first gate that failed twice in a row; nil when every
	// gate passed.
	failed *failure.GateEvidence
	// flaky names the gates that failed once and passed when run again.
	flaky []string
}

// Verifier runs the plan's gates on trees no phase's gates ran on: a
// combination of landings, and the run's base. It checks each tree out
// in one detached worktree of its own (never your checkout, never a
// phase's worktree) and remembers each tree's verdict by its hash, so no
// tree is verified twice. A gate that fails is run once more before it
// counts (a flaky gate is not a conflict). Its fields after the first are
// guarded by integrator.mu (every verification runs under it, or before
// the run's first phase starts).
type Verifier struct {
	Repo     *gitx.Repo
	Gates    []gates.Gate
	Dir      string // the verification worktree
	LogPath  string
	Timeout  time.Duration
	Grace    time.Duration
	HardStop <-chan struct{}
	// Stop is the run's context, set before its first phase starts: a
	// Ctrl-C or SIGTERM ends it, and with it the gates of a verification
	// (a landing's own context is not canceled, so that its git commands
	// run to the end; a verification's gates can take minutes).
	Stop context.Context
	// baseFailing holds, per gate kind, the failing tests the run's base
	// already had (--allow-red-base): a gate that fails with only those
	// counts as passed.
	baseFailing map[string][]string
	// baseDone is closed once the base check has ended (baseErr: its
	// refusal); nil when there was none to wait for.
	baseDone chan struct{}
	baseErr  error

	// Parallel is how many verifications a bisection runs side by side
	// (--max-parallel), each in a worktree of its own.
	Parallel int
	// Ready makes a verification worktree ready for the gates as a
	// phase's is ([worktree]: its files, setup, ports; engine/wtenv.go)
	// and returns the gates' environment; nil leaves it as checked out.
	Ready func(ctx context.Context, dir string, log io.Writer) (env []string, release func(), err error)

	mu    sync.Mutex         // guards cache and last
	cache map[string]verdict // tree → verdict
	last  time.Duration      // how long the last run of the gates took
}

// lastRun is how long the last run of the gates on a tree took.
func (v *Verifier) lastRun() time.Duration {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.last
}

// ran records how long a run of the gates took.
func (v *Verifier) ran(d time.Duration) {
	v.mu.Lock()
	v.last = d
	v.mu.Unlock()
}

// markGreen records that commit's tree passed the gates (a phase's gates
// ran on exactly that tree).
func (v *Verifier) markGreen(ctx context.Context, commit string) {
	if tree, err := v.Repo.TreeOf(ctx, commit); err == nil {
		v.remember(tree, verdict{}, false)
	}
}

// remember records tree's verdict; an earlier one wins unless replace.
func (v *Verifier) remember(tree string, vd verdict, replace bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.cache == nil {
		v.cache = map[string]verdict{}
	}
	if _, ok := v.cache[tree]; !ok || replace {
		v.cache[tree] = vd
	}
}

// verify runs the gates on commit's tree, or returns its known verdict.
func (v *Verifier) verify(ctx context.Context, commit string) (verdict, error) {
	return v.verifyIn(ctx, commit, v.Dir)
}

// verifyIn is verify in the verification worktree dir.
func (v *Verifier) verifyIn(ctx context.Context, commit, dir string) (verdict, error) {
	tree, err := v.Repo.TreeOf(ctx, commit)
	if err != nil {
		return verdict{}, err
	}
	v.mu.Lock()
	vd, ok := v.cache[tree]
	v.mu.Unlock()
	if ok {
		return vd, nil
	}
	if err := v.Repo.CheckoutDetached(ctx, dir, commit); err != nil {
		return verdict{}, err
	}
	ctx, cancel := v.stoppable(ctx)
	defer cancel()
	var out strings.Builder
	defer func() { v.appendLog(out.String()) }()
	env, release, err := v.readyDir(ctx, dir, &out)
	if err != nil {
		return verdict{}, err
	}
	defer release()
	began := time.Now()
	defer func() { v.ran(time.Since(began)) }()
	fmt.Fprintf(&out, "\n# autobuild: verifying tree %s (commit %s) in %s\n", tree, commit, filepath.Base(dir))
	for _, g := range v.Gates {
		if g.Skipped() {
			continue
		}
		ev, timedOut, err := v.runGateTimed(ctx, g, dir, env, &out)
		if err != nil {
			return verdict{}, err
		}
		if ev != nil && !timedOut {
			fmt.Fprintf(&out, "# autobuild: gate %s failed; running it again before it counts\n", g.Kind)
			if ev, err = v.runGate(ctx, g, dir, env, &out); err != nil {
				return verdict{}, err
			}
			if ev == nil {
				vd.flaky = append(vd.flaky, g.Kind)
			}
		}
		if ev != nil && !v.tolerated(g.Kind, ev.Output) {
			vd.failed = ev
			break
		}
	}
	v.remember(tree, vd, true)
	return vd, nil
}

// stoppable is ctx, also ended when the run's context ends (stop).
func (v *Verifier) stoppable(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if v.Stop == nil {
		return ctx, cancel
	}
	unhook := context.AfterFunc(v.Stop, cancel)
	return ctx, func() { unhook(); cancel() }
}

// verifyAll verifies commits side by side, each in a verification
// worktree of its own.
func (v *Verifier) verifyAll(ctx context.Context, commits []string) ([]verdict, error) {
	vds := make([]verdict, len(commits))
	errs := make([]error, len(commits))
	var wg sync.WaitGroup
	for i, c := range commits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vds[i], errs[i] = v.verifyIn(ctx, c, v.worktree(i))
		}()
	}
	wg.Wait()
	return vds, errors.Join(errs...)
}

// worktree is the i-th verification worktree: verify, verify-2, …
func (v *Verifier) worktree(i int) string {
	if i == 0 {
		return v.Dir
	}
	return v.Dir + "-" + strconv.Itoa(i+1)
}

// bisect finds the first link of group whose prefix fails, knowing that
// the whole group fails (with last) and the line's tip does not: each
// round verifies up to parallel prefixes side by side, evenly spread
// between the longest prefix known to pass and the shortest known to
// fail. It returns the culprit's index, the gate that failed with it, and
// the rounds of gate runs it took after the group's own.
func (v *Verifier) bisect(ctx context.Context, group []link, last *failure.GateEvidence) (int, *failure.GateEvidence, int, error) {
	lo, hi := 0, len(group) // prefix lengths: lo passes, hi fails
	failedAt := map[int]*failure.GateEvidence{hi: last}
	rounds := 0
	for round := 2; hi-lo > 1; round++ {
		rounds++
		points := spread(lo, hi, max(1, v.Parallel))
		commits := make([]string, len(points))
		for i, k := range points {
			commits[i] = group[k-1].tip
		}
		v.appendLog(fmt.Sprintf("\n# autobuild: bisection round %d: prefixes %v of %d\n", round, points, len(group)))
		vds, err := v.verifyAll(ctx, commits)
		if err != nil {
			return 0, nil, rounds, err
		}
		newHi := hi
		for i, k := range points {
			if vds[i].failed != nil {
				newHi, failedAt[k] = k, vds[i].failed
				break
			}
		}
		for i, k := range points {
			if k < newHi && vds[i].failed == nil && k > lo {
				lo = k
			}
		}
		hi = newHi
	}
	return hi - 1, failedAt[hi], rounds, nil
}

// spread returns up to n whole numbers strictly between lo and hi, evenly
// spaced.
func spread(lo, hi, n int) []int {
	gap := hi - lo - 1
	if gap <= 0 {
		return nil
	}
	n = min(n, gap)
	out := make([]int, 0, n)
	for i := 1; i <= n; i++ {
		k := lo + (i*(hi-lo)+n)/(n+1)
		k = min(max(k, lo+1), hi-1)
		if len(out) == 0 || k > out[len(out)-1] {
			out = append(out, k)
		}
	}
	return out
}

// appendLog adds text to the verification log; a log that cannot be
// written loses the text, not the verification.
func (v *Verifier) appendLog(text string) {
	f, err := openAppend(v.LogPath)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = io.WriteString(f, text)
}

// runGate runs one gate in the verification worktree: nil when it passed.
func (v *Verifier) runGate(ctx context.Context, g gates.Gate, dir string, env []string, log io.Writer) (*failure.GateEvidence, error) {
	ev, _, err := v.runGateTimed(ctx, g, dir, env, log)
	return ev, err
}

// readyDir is ready, or nothing to do without it.
func (v *Verifier) readyDir(ctx context.Context, dir string, log io.Writer) ([]string, func(), error) {
	if v.Ready == nil {
		return nil, func() {}, nil
	}
	return v.Ready(ctx, dir, log)
}

// runGateTimed is runGate that also says whether the gate ran out of time.
func (v *Verifier) runGateTimed(ctx context.Context, g gates.Gate, dir string, env []string, log io.Writer) (*failure.GateEvidence, bool, error) {
	fmt.Fprintf(log, "# autobuild: gate %s: %s\n", g.Kind, g.Command)
	res := proc.Run(ctx, proc.Spec{Shell: g.Command, Dir: dir, Env: env, Timeout: v.Timeout, Grace: v.Grace,
		HardStop: v.HardStop, Output: log})
	if res.Canceled {
		return nil, false, fmt.Errorf("verifying: gate %s: %w", g.Kind, context.Canceled)
	}
	if res.ExitCode == 0 && !res.TimedOut && res.Err == nil {
		fmt.Fprintf(log, "# autobuild: gate %s passed in %s\n", g.Kind, res.Duration.Round(time.Millisecond))
		return nil, false, nil
	}
	out := res.Tail
	if res.Err != nil && !res.TimedOut {
		out += "\n" + res.Err.Error()
	}
	fmt.Fprintf(log, "# autobuild: gate %s failed (exit %d)\n", g.Kind, res.ExitCode)
	return &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: res.ExitCode, Output: out, Declared: g.Declared}, res.TimedOut, nil
}

// tolerated reports whether a failure of gate kind with output is one the
// run's base already had (--allow-red-base): every failing test it names
// failed on the base too. A failure that names no test is never tolerated:
// nothing says it is the same.
func (v *Verifier) tolerated(kind, output string) bool {
	return localexec.OnlyKnownFailures(v.baseFailing[kind], output)
}

// openAppend opens the verification log for appending, made if missing.
func openAppend(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return f, nil
}
