package agenttest

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

// Invocation is one run of a CLI.
type Invocation struct {
	Bin   string
	Args  []string
	Stdin string
	Dir   string
	Env   []string
	// Timeout bounds the run (default one minute); the CLIs' retries are
	// turned down, so every case ends in seconds.
	Timeout time.Duration
}

// Outcome is what a run produced.
type Outcome struct {
	Stdout, Stderr string
	Exit           int
	Duration       time.Duration
}

// Exec runs inv and waits for it; a non-zero exit is an outcome, not an error.
func Exec(t testing.TB, inv Invocation) Outcome {
	t.Helper()
	timeout := inv.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, inv.Bin, inv.Args...)
	cmd.Dir, cmd.Env = inv.Dir, inv.Env
	cmd.Stdin = strings.NewReader(inv.Stdin)
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := Outcome{Stdout: out.String(), Stderr: errb.String(), Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s %v did not end within %s\nstdout:\n%s\nstderr:\n%s", inv.Bin, inv.Args, timeout, o.Stdout, o.Stderr)
	case errors.As(err, &ee):
		o.Exit = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", inv.Bin, err)
	}
	return o
}

// Args is the machine-readable command line autobuild's adapters use for
// each CLI, from its preset's row (package preset), checked against the
// --help of the pinned versions: claude reads the prompt on stdin, codex
// reads it on stdin with "-", gemini is given it as -p's text (the row's
// -p text follows a prompt on stdin; these recordings pass it whole).
// skipPermissions (claude) and skipTrust (gemini) can be left out to
// record the CLI's refusals.
func Args(cli, prompt string, skipPermissions, skipTrust bool) (args []string, stdin string) {
	p, ok := preset.Named(cli)
	if !ok || p.Args == nil || (cli != "claude" && cli != "codex" && cli != "gemini") {
		panic("agenttest: unknown CLI " + cli)
	}
	stdin = prompt
	for i := 1; i < len(p.Args); i++ {
		switch a := p.Args[i]; {
		case a == "--dangerously-skip-permissions" && !skipPermissions, a == "--skip-trust" && !skipTrust:
		case a == "-p" && cli == "gemini" && i+1 < len(p.Args):
			args, stdin = append(args, "-p", prompt), ""
			i++
		default:
			args = append(args, a)
		}
	}
	return args, stdin
}
