package gitx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// TestMain isolates the tests from the machine's git configuration (a global
// commit.gpgsign or hooksPath would change what they see) and from its
// identity, so the fallback identity is exercised where none is set.
func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"} {
		os.Unsetenv(v)
	}
	os.Exit(m.Run())
}

// gitT runs git in dir for test setup and returns its trimmed output.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.quotepath=off"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// writeFile writes content to name under dir, creating directories.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// readFile returns the content of name under dir.
func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	return string(b)
}

// numbered returns n lines "line 1" … "line n", with line i replaced when
// edits has it.
func numbered(n int, edits map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if e, ok := edits[i]; ok {
			b.WriteString(e + "\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// newRepo makes a repository with an identity, a README and a 20-line
// file f.txt on branch main, and opens it.
func newRepo(t *testing.T) (*Repo, string) {
	t.Helper()
	dir := gittest.New(t, gittest.File("README.md", "# test\n"), gittest.File("f.txt", numbered(20, nil)))
	r, err := Open(context.Background(), dir)
	require.NoError(t, err)
	return r, r.Root()
}

// newRepoAtBase is newRepo and the commit it starts at.
func newRepoAtBase(t *testing.T) (r *Repo, root, base string) {
	t.Helper()
	r, root = newRepo(t)
	base, err := r.Head(context.Background(), "")
	require.NoError(t, err)
	return r, root, base
}

// signWithStandIn makes the repository at root sign its commits
// (commit.gpgSign) with a stand-in for gpg: git needs its status line and a
// signature block.
func signWithStandIn(t *testing.T, root string) {
	t.Helper()
	gpg := filepath.Join(t.TempDir(), "gpg")
	writeFile(t, filepath.Dir(gpg), "gpg", "#!/bin/sh\ncat > /dev/null\necho '[GNUPG:] SIG_CREATED D 1 8 00 0 X' >&2\n"+
		"printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nfake\\n-----END PGP SIGNATURE-----\\n'\n")
	require.NoError(t, os.Chmod(gpg, 0o755))
	gitT(t, root, "config", "gpg.program", gpg)
	gitT(t, root, "config", "commit.gpgsign", "true")
}

// commitFiles writes the files (name, content pairs) in the worktree at
// root and commits everything with message.
func commitFiles(t *testing.T, root, message string, nameContent ...string) {
	t.Helper()
	for i := 0; i+1 < len(nameContent); i += 2 {
		writeFile(t, root, nameContent[i], nameContent[i+1])
	}
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-qm", message)
}
