// Package gittest makes the git repositories that tests work in: real git,
// in a temporary directory, with an identity and a first commit. Only tests
// import it.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Identity is the user a repository made by New commits as, unless
// WithIdentity says otherwise.
const (
	Name  = "Test User"
	Email = "test@example.com"
)

// Option changes the repository New makes.
type Option func(*options)

type options struct {
	dir         string
	branch      string
	name, email string
	message     string
	files       map[string]string
	empty       bool
}

// At makes the repository in dir (created if missing) instead of a new
// temporary directory.
func At(dir string) Option { return func(o *options) { o.dir = dir } }

// Branch names the first branch (main unless given).
func Branch(name string) Option { return func(o *options) { o.branch = name } }

// WithIdentity sets the repository's user.name and user.email.
func WithIdentity(name, email string) Option {
	return func(o *options) { o.name, o.email = name, email }
}

// Message is the first commit's message ("initial" unless given).
func Message(msg string) Option { return func(o *options) { o.message = msg } }

// File adds a file (path relative to the repository, slash-separated) to the
// first commit.
func File(path, content string) Option {
	return func(o *options) { o.files[path] = content }
}

// Files adds files (path → content) to the first commit.
func Files(files map[string]string) Option {
	return func(o *options) {
		for p, c := range files {
			o.files[p] = c
		}
	}
}

// NoCommit leaves the repository without a commit; files given are written
// but not added.
func NoCommit() Option { return func(o *options) { o.empty = true } }

// New makes a git repository with an identity (Name, Email) and a first
// commit holding the files given (an empty commit when there are none) on
// branch main, and returns its directory.
func New(t testing.TB, opts ...Option) string {
	t.Helper()
	o := options{branch: "main", name: Name, email: Email, message: "initial", files: map[string]string{}}
	for _, opt := range opts {
		opt(&o)
	}
	dir := o.dir
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("gittest: %v", err)
	}
	Git(t, dir, "init", "-q", "-b", o.branch)
	Git(t, dir, "config", "user.name", o.name)
	Git(t, dir, "config", "user.email", o.email)
	paths := make([]string, 0, len(o.files))
	for p := range o.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		WriteFile(t, filepath.Join(dir, filepath.FromSlash(p)), o.files[p])
	}
	if o.empty {
		return dir
	}
	Git(t, dir, "add", "-A")
	// The identity is the repository's; the environment's GIT_AUTHOR_* and
	// GIT_COMMITTER_* (CI sets them) would otherwise win over it.
	run(t, dir, []string{"GIT_AUTHOR_NAME=" + o.name, "GIT_AUTHOR_EMAIL=" + o.email,
		"GIT_COMMITTER_NAME=" + o.name, "GIT_COMMITTER_EMAIL=" + o.email},
		"commit", "-q", "--allow-empty", "-m", o.message)
	return dir
}

// Git runs git with args in dir and returns its output (stdout and stderr)
// without the surrounding space; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return run(t, dir, nil, args...)
}

// run is Git with env added to the process's environment.
func run(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// WriteFile writes content to path, making its directories.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("gittest: %v", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatalf("gittest: %v", err)
	}
}
