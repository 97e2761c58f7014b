package temporaltest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"
)

// EnvBinary names an already built dev server; when set, nothing is built.
const EnvBinary = "AUTOBUILD_TEMPORAL_DEV"

// EnvBuild set to 1 lets a test build the dev server when the cache has
// none. By default a test does not: the first build is about ten minutes of
// CPU (some 1,750 packages), which would make `go test ./...` on a clean
// checkout take far longer than its budget; the tests that need the server
// skip, naming the one command that builds it.
const EnvBuild = "AUTOBUILD_TEMPORAL_BUILD"

// EnvRequired set to 1 turns every skip into a failure: .ci/run sets it once
// it has built the server, so a server that is there but cannot be used
// fails CI instead of skipping quietly.
const EnvRequired = "AUTOBUILD_TEMPORAL_REQUIRED"

// buildCommand is what a person runs once to build the dev server.
const buildCommand = "go run ./internal/temporaltest/cmd/build-temporal-dev"

// builder finds or builds the dev server binary. Its fields are what the
// process would read from its environment, so tests can vary them.
type builder struct {
	getenv   func(string) string
	lookPath func(string) (string, error)
	cacheDir string   // the user's cache directory ("" when there is none)
	srcDir   string   // tools/temporal-dev
	env      []string // environment of `go build`; nil inherits
	build    bool     // build when the cache has none (else skip)
}

// Build finds or builds the dev server as Start does, for a program (.ci/run
// builds it once before the tests). skip says why it cannot be built on this
// machine; err is anything else.
func Build(ctx context.Context) (path, skip string, err error) {
	b := defaultBuilder()
	b.build = true
	return b.binary(ctx)
}

func defaultBuilder() builder {
	cache, _ := os.UserCacheDir()
	wd, _ := os.Getwd()
	src, err := findSource(wd)
	if err != nil {
		src = ""
	}
	return builder{getenv: os.Getenv, lookPath: exec.LookPath, cacheDir: cache, srcDir: src,
		build: os.Getenv(EnvBuild) == "1"}
}

// binary returns the dev server's path. skip says why it cannot be had on
// this machine (no Go, no network to fetch its modules); err is anything
// else, which is a bug to fix, not a reason to skip.
func (b builder) binary(ctx context.Context) (path, skip string, err error) {
	if p := b.getenv(EnvBinary); p != "" {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", "", fmt.Errorf("%s=%s is not an executable file", EnvBinary, p)
		}
		return p, "", nil
	}
	if b.srcDir == "" {
		return "", "", fmt.Errorf("cannot find %s from the test's directory", sourceRel)
	}
	goTool, err := b.lookPath("go")
	if err != nil {
		return "", fmt.Sprintf("go is not on PATH: cannot build the Temporal dev server (%s); set %s to a built one", sourceRel, EnvBinary), nil
	}
	if b.cacheDir == "" {
		return "", "", fmt.Errorf("no user cache directory to build the Temporal dev server into; set %s", EnvBinary)
	}
	key, err := sourceKey(b.srcDir)
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(b.cacheDir, "autobuild", "temporal-dev", key)
	path = filepath.Join(dir, "temporal-dev")
	if isExecutable(path) {
		return path, "", nil
	}
	if !b.build {
		return "", fmt.Sprintf("the Temporal dev server is not built yet: build it once with `%s` "+
			"(about ten minutes of CPU the first time), or set %s=1 to let the tests build it, or %s to a built one",
			buildCommand, EnvBuild, EnvBinary), nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("cache directory for the Temporal dev server: %w", err)
	}
	// One build at a time, across the test binaries go test runs in parallel
	// and across the tests of one binary.
	lock := flock.New(filepath.Join(dir, "build.lock"))
	if err := lock.Lock(); err != nil {
		return "", "", fmt.Errorf("lock %s: %w", dir, err)
	}
	defer lock.Unlock()
	if isExecutable(path) { // built by whoever held the lock
		return path, "", nil
	}
	tmp := path + ".tmp"
	// No symbol table or DWARF: a test server, a smaller file, a shorter link.
	cmd := exec.CommandContext(ctx, goTool, "build", "-ldflags=-s -w", "-o", tmp, ".")
	cmd.Dir = b.srcDir
	cmd.Env = append(b.env, "GOWORK=off")
	if b.env == nil {
		cmd.Env = append(os.Environ(), "GOWORK=off")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		text := strings.TrimSpace(out.String())
		if line, ok := fetchFailure(text); ok {
			return "", fmt.Sprintf("cannot fetch the Temporal dev server's modules (%s), so it is not built: %s", sourceRel, line), nil
		}
		return "", "", fmt.Errorf("build the Temporal dev server in %s: %w\n%s", b.srcDir, err, text)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", "", fmt.Errorf("install the Temporal dev server: %w", err)
	}
	return path, "", nil
}

// fetchFailure reports whether go build's output says a module could not be
// downloaded, and the line that says so.
func fetchFailure(out string) (string, bool) {
	markers := []string{
		"GOPROXY=off", "dial tcp", "no such host", "connection refused",
		"i/o timeout", "TLS handshake timeout", "network is unreachable", "temporary failure in name resolution",
	}
	for _, line := range strings.Split(out, "\n") {
		for _, m := range markers {
			if strings.Contains(strings.ToLower(line), strings.ToLower(m)) {
				return strings.TrimSpace(line), true
			}
		}
	}
	return "", false
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
