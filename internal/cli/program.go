package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/shell"
)

// launcher is how the commands autobuild prints for the user to run (resume,
// fresh) start autobuild: a command the user can type, never a path into Go's
// build cache.
type launcher struct {
	// words start the command, quoted and ready to print: "autobuild",
	// "'/home/me/my tools/autobuild'" or "go run ./cmd/autobuild".
	words string
	// goRun is set when this binary came from `go run`: the words build
	// autobuild again from its checkout, so they only work from where the
	// user ran them, and a command for another directory says -C DIR
	// instead of cd DIR.
	goRun bool
}

// programName is the launcher of this process. It is "autobuild" when that is
// what the shell finds on PATH, so the usual case reads naturally; for a `go
// run` build (which lives in Go's build cache or a temporary directory), the
// `go run` command that built it, relative to the working directory; otherwise
// this binary's absolute path, so a binary built in a checkout and run as
// ./autobuild gets a command that works as printed.
func programName() launcher {
	exe, err := os.Executable()
	if err != nil {
		return launcher{words: "autobuild"}
	}
	return launcherFor(exe, exec.LookPath, goBuildDirs(), goRunWords)
}

func launcherFor(exe string, lookPath func(string) (string, error), buildDirs []string, goRun func() string) launcher {
	if onPath, err := lookPath("autobuild"); err == nil && sameFile(onPath, exe) {
		return launcher{words: "autobuild"}
	}
	if isGoRunBuild(exe, buildDirs) {
		if words := goRun(); words != "" {
			return launcher{words: words, goRun: true}
		}
		// Built by `go run` from outside its module (go -C, a path):
		// nothing here rebuilds it, so the name it has once installed.
		return launcher{words: "autobuild", goRun: true}
	}
	return launcher{words: shell.Quote(exe)}
}

// String is the launcher's words.
func (l launcher) String() string { return l.words }

// in is the command that runs autobuild with args (already quoted) in dir:
// dir's own, for a command pasted anywhere. A binary's command changes
// directory with cd; a `go run` command must stay where its package path
// leads, so it passes -C DIR to autobuild instead.
func (l launcher) in(dir string, args ...string) string {
	command := strings.Join(append([]string{l.words}, args...), " ")
	if !l.goRun {
		return inDir(dir, command)
	}
	rel := relDir(dir)
	if rel == "" {
		return command
	}
	return strings.Join(append([]string{l.words, "-C", shell.Quote(rel)}, args...), " ")
}

// at is in with dir always absolute: for a command printed once and pasted
// later from anywhere (the demo's, whose repository is somewhere in /tmp).
func (l launcher) at(dir string, args ...string) string {
	if l.goRun {
		return strings.Join(append([]string{l.words, "-C", shell.Quote(dir)}, args...), " ")
	}
	return "cd " + shell.Quote(dir) + " && " + strings.Join(append([]string{l.words}, args...), " ")
}

// installHint says how to stop needing `go run`, for a launcher that is one;
// it is empty otherwise.
func (l launcher) installHint() string {
	if !l.goRun {
		return ""
	}
	return "(autobuild ran from `go run`, which builds it anew each time: `go build -o autobuild ./cmd/autobuild` " +
		"in its checkout makes a binary to run as ./autobuild, and `go install ./cmd/autobuild` puts it on PATH in $(go env GOPATH)/bin)"
}

// goRunCache matches the directory Go's build cache keeps a `go run`
// executable in: <cache>/<2 hex>/<64 hex>-d/<name> (Go 1.24 and later).
var goRunCache = lazyre.New(`/[0-9a-f]{2}/[0-9a-f]{64}-d/[^/]+$`)

// goRunTemp matches the work directory a `go run` build links into:
// <tmp>/go-build<digits>/b001/exe/<name>.
var goRunTemp = lazyre.New(`/go-build[0-9]+/b[0-9]+/exe/[^/]+$`)

// isGoRunBuild reports whether exe is a binary built by `go run`: in its
// temporary work directory, or in Go's build cache (buildDirs: GOCACHE and
// the temporary directories), which may be anywhere GOCACHE points.
func isGoRunBuild(exe string, buildDirs []string) bool {
	slashed := filepath.ToSlash(exe)
	if goRunTemp().MatchString(slashed) || goRunCache().MatchString(slashed) {
		return true
	}
	for _, d := range buildDirs {
		if d == "" {
			continue
		}
		if rel, err := filepath.Rel(d, exe); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// goBuildDirs are where Go keeps what `go run` builds: GOCACHE (its
// default, <user cache>/go-build, when unset) and GOTMPDIR.
func goBuildDirs() []string {
	dirs := []string{os.Getenv("GOCACHE"), os.Getenv("GOTMPDIR")}
	if cache, err := os.UserCacheDir(); err == nil && os.Getenv("GOCACHE") == "" {
		dirs = append(dirs, filepath.Join(cache, "go-build"))
	}
	return dirs
}

// goRunWords is the `go run` command that builds this binary from the
// working directory: the package's directory in the module that holds the
// working directory, or "" when the working directory is not in autobuild's
// module.
func goRunWords() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return goRunWordsFor(wd, info.Main.Path, info.Path)
}

func goRunWordsFor(wd, module, pkg string) string {
	if module == "" || !strings.HasPrefix(pkg, module) {
		return ""
	}
	root := moduleRoot(wd, module)
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(pkg, module)))
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		return ""
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, ".") {
		rel = "./" + rel
	}
	return "go run " + shell.Quote(rel)
}

// moduleRoot is the directory at or above dir whose go.mod declares module,
// or "".
func moduleRoot(dir, module string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if f, err := os.Open(filepath.Join(d, "go.mod")); err == nil {
			declared := modulePath(f)
			f.Close()
			if declared == module {
				return d
			}
			return "" // a module of its own: the package is not below
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func modulePath(f *os.File) string {
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// relDir is dir as the user would type it from the working directory: "" when
// it is the working directory, relative when below it, else absolute.
func relDir(dir string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, dir); err == nil {
			if rel == "." {
				return ""
			}
			if rel != ".." && !strings.HasPrefix(rel, "../") {
				return rel // below the user's directory: the short way
			}
		}
	}
	return dir
}

// inDir prefixes command with a cd to dir, unless dir is where the user is:
// printed commands must work from wherever they are pasted.
func inDir(dir, command string) string {
	rel := relDir(dir)
	if rel == "" {
		return command
	}
	return "cd " + shell.Quote(rel) + " && " + command
}
