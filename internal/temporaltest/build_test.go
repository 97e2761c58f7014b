package temporaltest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func testBuilder(t *testing.T, env map[string]string) builder {
	t.Helper()
	src, err := findSource(".")
	if err != nil {
		t.Fatal(err)
	}
	return builder{
		getenv:   func(k string) string { return env[k] },
		lookPath: exec.LookPath,
		cacheDir: t.TempDir(),
		srcDir:   src,
		build:    true,
	}
}

// Without AUTOBUILD_TEMPORAL_BUILD=1 a test never starts the ten-minute
// build: it skips with the command that builds the server.
func TestBinaryNotBuiltSkipsWithTheCommand(t *testing.T) {
	b := testBuilder(t, nil)
	b.build = false
	path, skip, err := b.binary(context.Background())
	if err != nil || path != "" {
		t.Fatalf("binary() = %q, %v; want a skip", path, err)
	}
	if !strings.Contains(skip, buildCommand) || strings.Contains(skip, "\n") {
		t.Fatalf("skip %q: want one line naming %q", skip, buildCommand)
	}
	entries, _ := os.ReadDir(b.cacheDir)
	if len(entries) != 0 {
		t.Fatalf("the cache got %d entries: nothing may be built or made", len(entries))
	}
}

func TestBinaryWithoutGoSkipsWithOneLine(t *testing.T) {
	b := testBuilder(t, nil)
	b.lookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	path, skip, err := b.binary(context.Background())
	if err != nil || path != "" {
		t.Fatalf("binary() = %q, %v; want a skip", path, err)
	}
	if !strings.Contains(skip, "go is not on PATH") || !strings.Contains(skip, EnvBinary) || strings.Contains(skip, "\n") {
		t.Fatalf("skip = %q; want one line naming the missing go and %s", skip, EnvBinary)
	}
}

func TestBinaryWithoutNetworkSkips(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs go")
	}
	b := testBuilder(t, nil)
	// An empty module cache and no proxy: the build cannot fetch a module.
	b.env = append(os.Environ(), "GOMODCACHE="+t.TempDir(), "GOPROXY=off", "GOFLAGS=-mod=mod")
	path, skip, err := b.binary(context.Background())
	if err != nil || path != "" {
		t.Fatalf("binary() = %q, %v; want a skip", path, err)
	}
	if !strings.Contains(skip, "cannot fetch") || !strings.Contains(skip, "GOPROXY=off") || strings.Contains(skip, "\n") {
		t.Fatalf("skip = %q; want one line saying the modules cannot be fetched", skip)
	}
}

func TestBinaryFailsOnACompileError(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs go")
	}
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module broken\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() { undefined() }\n"), 0o644)
	b := testBuilder(t, nil)
	b.srcDir = src
	_, skip, err := b.binary(context.Background())
	if err == nil || skip != "" || !strings.Contains(err.Error(), "undefined") {
		t.Fatalf("binary() = skip %q, err %v; want an error with the compiler's message", skip, err)
	}
}

func TestBinaryFromTheEnvironment(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "temporal-dev")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := testBuilder(t, map[string]string{EnvBinary: exe})
	b.lookPath = func(string) (string, error) { return "", exec.ErrNotFound } // nothing is built
	if path, skip, err := b.binary(context.Background()); path != exe || skip != "" || err != nil {
		t.Fatalf("binary() = %q, %q, %v; want %s", path, skip, err, exe)
	}
	b = testBuilder(t, map[string]string{EnvBinary: exe + ".missing"})
	if _, _, err := b.binary(context.Background()); err == nil || !strings.Contains(err.Error(), EnvBinary) {
		t.Fatalf("binary() with a missing %s: err %v; want an error naming it", EnvBinary, err)
	}
}

func TestOutcomeWhenRequiredNeverSkips(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		required  bool
		skip      string
		err       error
		wantSkip  bool
		wantFatal bool
	}{
		{false, "", nil, false, false},
		{false, "no go", nil, true, false},
		{true, "no go", nil, false, true},
		{false, "", boom, false, true},
		{true, "", boom, false, true},
	}
	for _, c := range cases {
		msg, fatal := outcome(c.required, c.skip, c.err)
		if (msg != "") != c.wantSkip || (fatal != nil) != c.wantFatal {
			t.Errorf("outcome(required=%v, %q, %v) = %q, %v", c.required, c.skip, c.err, msg, fatal)
		}
	}
}

func TestSourceKeyFollowsTheSources(t *testing.T) {
	src := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n")
	write("go.sum", "a v1 h1:x\n")
	write("main.go", "package main\n")
	k1, err := sourceKey(src)
	if err != nil {
		t.Fatal(err)
	}
	write("main_test.go", "package main\n") // tests are not in the binary
	if k, _ := sourceKey(src); k != k1 {
		t.Fatalf("a test file changed the key")
	}
	write("go.sum", "a v2 h1:y\n")
	k2, _ := sourceKey(src)
	write("main.go", "package main\n\nfunc main() {}\n")
	k3, _ := sourceKey(src)
	if k1 == k2 || k2 == k3 {
		t.Fatalf("keys %s %s %s: want a new key when go.sum or a source changes", k1, k2, k3)
	}
}
