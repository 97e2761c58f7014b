// Command wtenvtime is bench/wtenv.sh's helper: it brings the ignored
// files a run would bring into each worktree given (package wtenv, as the
// engine does) and prints one line per worktree: its path, the mode and
// the milliseconds it took, the files and those put, and the processor
// time it took (user + system, ms: what a loaded machine inflates least).
//
//	go run ./bench/wtenvtime [-new | -new-bare] REPO PATTERN[,PATTERN…] WORKTREE...
//
// With -new each WORKTREE that does not exist yet is first made as a phase's is (gitx's
// AddWorktreeAlongside: registered, then its tracked files written while
// the ignored ones are put in, then checked), on a branch named after it,
// and the time is the whole; with -new-bare it is only made (the same
// worktree creation without files, the yardstick).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

func main() {
	fresh := flag.Bool("new", false, "make each worktree, its files brought in alongside its checkout")
	bare := flag.Bool("new-bare", false, "make each worktree, without files")
	flag.Parse()
	args := flag.Args()
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: wtenvtime [-new | -new-bare] REPO PATTERN[,PATTERN...] WORKTREE...")
		os.Exit(2)
	}
	if err := run(context.Background(), args[0], strings.Split(args[1], ","), args[2:], *fresh, *bare); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, root string, copy, wts []string, fresh, bare bool) error {
	pats, err := wtenv.Patterns(root, copy)
	if err != nil {
		return err
	}
	e := wtenv.New(root, filepath.Join(root, ".autobuild", "worktree-files"), pats, wtenv.SystemOps())
	repo, err := gitx.Open(ctx, root)
	if err != nil {
		return err
	}
	head, err := repo.Head(ctx, "")
	if err != nil {
		return err
	}
	for _, wt := range wts {
		start, cpu0 := time.Now(), cpuTime()
		var res wtenv.Result
		switch {
		case (fresh || bare) && exists(wt):
			res, err = e.Bring(ctx, wt)
		case bare:
			err = repo.AddWorktree(ctx, wt, "wtenvtime/"+filepath.Base(wt), head)
		case fresh:
			var perr error
			err = repo.AddWorktreeAlongside(ctx, wt, "wtenvtime/"+filepath.Base(wt), head, func() { res, perr = e.Put(ctx, wt) })
			if err == nil && perr == nil {
				res, err = e.Check(ctx, wt, res)
			} else if err == nil {
				err = perr
			}
		default:
			res, err = e.Bring(ctx, wt)
		}
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%s\t%d\t%d files\t%d put\t%d cpu\n", wt, res.Mode, time.Since(start).Milliseconds(), res.Stats.Files, res.Stats.Put,
			(cpuTime() - cpu0).Milliseconds())
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// cpuTime is the processor time this process has used, user and system
// (not git's, which runs in processes of its own).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
