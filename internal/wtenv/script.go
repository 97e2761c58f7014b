package wtenv

import (
	"context"
	"io"
	"time"

	"github.com/autobuild-sh/autobuild/internal/proc"
)

// Script is one run of the setup or teardown command in a worktree.
type Script struct {
	Command string
	Dir     string
	// Env is added to the inherited environment (the phase's AUTOBUILD_*
	// variables and its ports).
	Env      []string
	Timeout  time.Duration
	Grace    time.Duration
	HardStop <-chan struct{}
	// Output gets every byte (the attempt log); OnLine each line.
	Output io.Writer
	OnLine func(string)
}

// Run runs the command with /bin/sh -c in its own process group, as the
// gates run, and returns how it ended.
func (s Script) Run(ctx context.Context) proc.Result {
	return proc.Run(ctx, proc.Spec{Shell: s.Command, Dir: s.Dir, Env: s.Env, Timeout: s.Timeout,
		Grace: s.Grace, HardStop: s.HardStop, Output: s.Output, OnLine: s.OnLine})
}
