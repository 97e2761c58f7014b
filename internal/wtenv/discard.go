package wtenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// Discard moves the entries brought into each worktree in wts out of it,
// into trash (a folder under .autobuild/), and has them removed there in
// the background: removing the worktrees after it then costs git's files
// only, not the 20,000 of a node_modules each. A rename never crosses a
// file system, so an entry that cannot be renamed stays for the worktree's
// own removal. It returns how many entries it moved.
func (e *Env) Discard(trash string, wts []string) (int, error) {
	if len(e.entries) == 0 || len(wts) == 0 {
		return 0, nil
	}
	if err := os.MkdirAll(trash, 0o755); err != nil {
		return 0, fmt.Errorf("creating %s: %w", trash, err)
	}
	moved := 0
	var errs []error
	for _, wt := range wts {
		for _, en := range e.entries {
			p := filepath.Join(wt, filepath.FromSlash(en.Path))
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			to, err := os.MkdirTemp(trash, "entry-")
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if err := os.Rename(p, filepath.Join(to, "x")); err != nil {
				errs = append(errs, err)
				continue
			}
			moved++
		}
	}
	return moved, errors.Join(errs...)
}

// EmptyTrash removes what is in trash (and trash itself) in a process of
// its own, in a session of its own, which goes on after autobuild exits:
// a run does not wait for a million unlinks. What a killed removal leaves
// is removed by the next run's.
func EmptyTrash(trash string) error {
	// Renamed first, so the next run's trash is a new folder and this
	// removal owns its own; an earlier removal that was killed is taken
	// up again.
	gone, _ := filepath.Glob(trash + ".removing-*")
	if entries, err := os.ReadDir(trash); err == nil && len(entries) > 0 {
		to := trash + fmt.Sprintf(".removing-%d", os.Getpid())
		if err := os.Rename(trash, to); err != nil {
			return fmt.Errorf("moving %s aside: %w", trash, err)
		}
		gone = append(gone, to)
	}
	if len(gone) == 0 {
		return nil
	}
	// At the lowest priority where the system has the tools: it must not
	// slow down the run that starts next.
	args := append([]string{"rm", "-rf", "--"}, gone...)
	if p, err := exec.LookPath("ionice"); err == nil {
		args = append([]string{p, "-c", "3"}, args...)
	}
	if p, err := exec.LookPath("nice"); err == nil {
		args = append([]string{p, "-n", "19"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		var errs []error
		for _, g := range gone {
			errs = append(errs, gitx.RemoveAll(g))
		}
		return errors.Join(errs...)
	}
	// Reaped by nobody once autobuild exits: init adopts it.
	go func() { _ = cmd.Wait() }()
	return nil
}
