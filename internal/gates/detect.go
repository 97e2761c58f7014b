package gates

import (
	"os"
	"path/filepath"
)

// detect returns the gates the repository in dir suggests, ecosystem by
// ecosystem (Go, Node, Python, Rust): a repository with several gets all of
// them. Tools are not looked up here.
func detect(dir string) []Gate {
	var out []Gate
	for _, eco := range []func(string) []Gate{goGates, nodeGates, pythonGates, rustGates} {
		out = append(out, eco(dir)...)
	}
	return out
}

// goGates are the gates of a Go module. The format gate lists unformatted
// files (and gofmt's own errors) on stderr, so a failure says which files;
// gofmt -l alone exits 0 whatever it finds.
func goGates(dir string) []Gate {
	if !exists(dir, "go.mod") {
		return nil
	}
	return []Gate{
		{Kind: "build", Command: "go build -o /dev/null ./...", Tool: "go"},
		{Kind: "lint", Command: "go vet ./...", Tool: "go"},
		{Kind: "format", Command: `test -z "$(gofmt -l . 2>&1 | tee /dev/stderr)"`, Tool: "gofmt"},
		{Kind: "test", Command: "go test ./...", Tool: "go"},
	}
}

// rustGates are the gates of a Cargo package or workspace. Clippy and
// rustfmt are separate rustup components, so their cargo subcommands are
// the tools to look for.
func rustGates(dir string) []Gate {
	if !exists(dir, "Cargo.toml") {
		return nil
	}
	return []Gate{
		{Kind: "build", Command: "cargo build", Tool: "cargo"},
		{Kind: "lint", Command: "cargo clippy -- -D warnings", Tool: "cargo-clippy"},
		{Kind: "format", Command: "cargo fmt --check", Tool: "cargo-fmt"},
		{Kind: "test", Command: "cargo test", Tool: "cargo"},
	}
}

// exists reports whether dir/name exists.
func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// isDir reports whether dir/name is a directory.
func isDir(dir, name string) bool {
	fi, err := os.Stat(filepath.Join(dir, name))
	return err == nil && fi.IsDir()
}
