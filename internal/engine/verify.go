package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
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

// verifier runs the plan's gates on trees no phase's gates ran on: a
// combination of landings, and the run's base. It checks each tree out
// in one detached worktree of its own (never your checkout, never a
// phase's worktree) and remembers each tree's verdict by its hash, so no
// tree is verified twice. A gate that fails is run once more before it
// counts (a flaky gate is not a conflict). Its fields after the first are
// guarded by integrator.mu (every verification runs under it, or before
// the run's first phase starts).
type verifier struct {
	repo     *gitx.Repo
	gates    []gates.Gate
	dir      string // the verification worktree
	logPath  string
	timeout  time.Duration
	grace    time.Duration
	hardStop <-chan struct{}
	// baseFailing holds, per gate kind, the failing tests the run's base
	// already had (--allow-red-base): a gate that fails with only those
	// counts as passed.
	baseFailing map[string][]string

	cache map[string]verdict // tree → verdict
}

// known reports the verdict of commit's tree, if it was verified (or its
// gates passed in a phase's worktree).
func (v *verifier) known(ctx context.Context, commit string) (verdict, bool) {
	tree, err := v.repo.TreeOf(ctx, commit)
	if err != nil {
		return verdict{}, false
	}
	vd, ok := v.cache[tree]
	return vd, ok
}

// markGreen records that commit's tree passed the gates (a phase's gates
// ran on exactly that tree).
func (v *verifier) markGreen(ctx context.Context, commit string) {
	if tree, err := v.repo.TreeOf(ctx, commit); err == nil {
		if _, ok := v.cache[tree]; !ok {
			v.cache[tree] = verdict{}
		}
	}
}

// verify runs the gates on commit's tree, or returns its known verdict.
func (v *verifier) verify(ctx context.Context, commit string) (verdict, error) {
	tree, err := v.repo.TreeOf(ctx, commit)
	if err != nil {
		return verdict{}, err
	}
	if vd, ok := v.cache[tree]; ok {
		return vd, nil
	}
	if err := v.repo.CheckoutDetached(ctx, v.dir, commit); err != nil {
		return verdict{}, err
	}
	log, err := openAppend(v.logPath)
	if err != nil {
		return verdict{}, err
	}
	defer log.Close()
	fmt.Fprintf(log, "\n# autobuild: verifying tree %s (commit %s)\n", tree, commit)
	var vd verdict
	for _, g := range v.gates {
		if g.Skipped() {
			continue
		}
		ev, err := v.runGate(ctx, g, log)
		if err != nil {
			return verdict{}, err
		}
		if ev != nil {
			fmt.Fprintf(log, "# autobuild: gate %s failed; running it again before it counts\n", g.Kind)
			if ev, err = v.runGate(ctx, g, log); err != nil {
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
	v.cache[tree] = vd
	return vd, nil
}

// runGate runs one gate in the verification worktree: nil when it passed.
func (v *verifier) runGate(ctx context.Context, g gates.Gate, log io.Writer) (*failure.GateEvidence, error) {
	fmt.Fprintf(log, "# autobuild: gate %s: %s\n", g.Kind, g.Command)
	res := proc.Run(ctx, proc.Spec{Shell: g.Command, Dir: v.dir, Timeout: v.timeout, Grace: v.grace,
		HardStop: v.hardStop, Output: log})
	if res.Canceled {
		return nil, fmt.Errorf("verifying: gate %s: %w", g.Kind, context.Canceled)
	}
	if res.ExitCode == 0 && !res.TimedOut && res.Err == nil {
		fmt.Fprintf(log, "# autobuild: gate %s passed in %s\n", g.Kind, res.Duration.Round(time.Millisecond))
		return nil, nil
	}
	out := res.Tail
	if res.Err != nil && !res.TimedOut {
		out += "\n" + res.Err.Error()
	}
	fmt.Fprintf(log, "# autobuild: gate %s failed (exit %d)\n", g.Kind, res.ExitCode)
	return &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: res.ExitCode, Output: out, Declared: g.Declared}, nil
}

// tolerated reports whether a failure of gate kind with output is one the
// run's base already had (--allow-red-base): every failing test it names
// failed on the base too. A failure that names no test is never tolerated:
// nothing says it is the same.
func (v *verifier) tolerated(kind, output string) bool {
	return onlyKnownFailures(v.baseFailing[kind], output)
}

// onlyKnownFailures reports whether output names failing tests and every
// one of them is in known.
func onlyKnownFailures(known []string, output string) bool {
	if len(known) == 0 {
		return false
	}
	names := failure.FailingTests(output)
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return false
		}
	}
	return true
}

// openAppend opens the verification log for appending, made if missing.
func openAppend(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return f, nil
}
