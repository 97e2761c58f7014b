package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/shell"
)

// programName is how the commands autobuild prints for the user to run
// (resume, fresh) should start, unquoted. It is "autobuild" when that is what the shell
// finds on PATH, so the usual case reads naturally; otherwise this binary's
// absolute path, so a binary built in a checkout and run as ./autobuild gets
// a command that works as printed. A `go run` build lives in a temporary
// directory that is gone when it exits: its commands say "autobuild", and the
// demo adds how to install it.
func programName() string {
	exe, err := os.Executable()
	if err != nil {
		return "autobuild"
	}
	return programNameFor(exe, exec.LookPath)
}

func programNameFor(exe string, lookPath func(string) (string, error)) string {
	if onPath, err := lookPath("autobuild"); err == nil && sameFile(onPath, exe) {
		return "autobuild"
	}
	if isGoRunBuild(exe) {
		return "autobuild"
	}
	return exe
}

// isGoRunBuild reports whether exe is a throwaway binary built by `go run`.
func isGoRunBuild(exe string) bool {
	return strings.Contains(filepath.ToSlash(exe), "/go-build")
}

func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// inDir prefixes command with a cd to dir, unless dir is where the user is:
// printed commands must work from wherever they are pasted.
func inDir(dir, command string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, dir); err == nil {
			if rel == "." {
				return command
			}
			if rel != ".." && !strings.HasPrefix(rel, "../") {
				dir = rel // below the user's directory: the short way
			}
		}
	}
	return "cd " + shell.Quote(dir) + " && " + command
}
