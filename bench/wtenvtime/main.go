// Command wtenvtime is bench/wtenv.sh's helper: it brings the ignored
// files a run would bring into each worktree given (package wtenv, as the
// engine does) and prints one line per worktree: its path, the mode and
// the milliseconds it took.
//
//	go run ./bench/wtenvtime REPO PATTERN[,PATTERN…] WORKTREE...
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: wtenvtime REPO PATTERN[,PATTERN...] WORKTREE...")
		os.Exit(2)
	}
	root := os.Args[1]
	pats, err := wtenv.Patterns(root, strings.Split(os.Args[2], ","))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e := wtenv.New(root, filepath.Join(root, ".autobuild", "worktree-files"), pats, wtenv.SystemOps())
	for _, wt := range os.Args[3:] {
		start := time.Now()
		res, err := e.Bring(context.Background(), wt)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s\t%s\t%d\t%d files\t%d put\n", wt, res.Mode, time.Since(start).Milliseconds(), res.Stats.Files, res.Stats.Put)
	}
}
