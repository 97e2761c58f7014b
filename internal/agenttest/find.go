package agenttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// InstallScript installs the CLIs these tests run.
const InstallScript = "scripts/install-agent-clis.sh"

// BinDir is where InstallScript puts the CLIs:
// ${AUTOBUILD_AGENT_CLIS:-$HOME/.cache/autobuild/agent-clis}/node_modules/.bin.
func BinDir() string {
	root := os.Getenv("AUTOBUILD_AGENT_CLIS")
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		root = filepath.Join(home, ".cache", "autobuild", "agent-clis")
	}
	return filepath.Join(root, "node_modules", ".bin")
}

// Find returns the path of an installed CLI (claude, codex, gemini), or a
// reason to skip that names the install script. Only InstallScript's copy
// counts: one on PATH may be another version, logged in to a real account.
func Find(name string) (path, skip string) {
	dir := BinDir()
	path = filepath.Join(dir, name)
	if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Sprintf("%s is not installed in %s: run %s (needs npm) to test against the real CLI", name, dir, InstallScript)
	}
	if name != "claude" { // codex and gemini are node scripts
		if _, err := exec.LookPath("node"); err != nil {
			return "", fmt.Sprintf("%s needs node, which is not on PATH", name)
		}
	}
	return path, ""
}

// Require returns the path of an installed CLI or skips the test.
func Require(t testing.TB, name string) string {
	t.Helper()
	path, skip := Find(name)
	if skip != "" {
		t.Skip(skip)
	}
	return path
}
