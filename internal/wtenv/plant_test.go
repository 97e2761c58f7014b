package wtenv

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// listing describes every file, link and folder under dir: type, mode,
// content or target, and whether it shares its inode with the same path
// under linkedTo.
func listing(t *testing.T, dir, linkedTo string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		fi, err := d.Info()
		require.NoError(t, err)
		desc := fi.Mode().String()
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			require.NoError(t, err)
			desc += " -> " + target
		case d.Type().IsRegular():
			desc += " " + read(t, p) + " " + fi.ModTime().String()
			if other, err := os.Stat(filepath.Join(linkedTo, rel)); err == nil && os.SameFile(fi, other) {
				desc += " linked"
			}
		}
		out[rel] = desc
		return nil
	}))
	return out
}

// TestPlantedAsMirrored: a new worktree given its files from the listing
// of autobuild's copy holds what a walk of the copy gives it: the same
// folders, modes, links, contents and times, dependency files linked to
// the copy, the rest copied.
func TestPlantedAsMirrored(t *testing.T) {
	dir := repo(t, map[string]string{".gitignore": "node_modules/\n.env\n.autobuild/\ngen/\n", "index.js": "x\n"},
		map[string]string{".env": "A=1\n", "node_modules/a/index.js": "a\n", "node_modules/a/lib/deep/x.js": "x\n",
			"node_modules/.bin/tool": "#!/bin/sh\n", "node_modules/b/package.json": "{}\n", "gen/api/types.go": "package api\n"})
	require.NoError(t, os.Chmod(filepath.Join(dir, "node_modules/.bin/tool"), 0o755))
	require.NoError(t, os.Chmod(filepath.Join(dir, "node_modules/b"), 0o750))
	require.NoError(t, os.Symlink("../a/index.js", filepath.Join(dir, "node_modules/b/main.js")))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "node_modules/empty"), 0o755))
	pats, err := Patterns(dir, []string{".env", "node_modules", "gen"})
	require.NoError(t, err)
	e := New(dir, filepath.Join(dir, ".autobuild", "worktree-files"), pats, Ops{Clone: noClone, Link: os.Link})

	walked := worktree(t, dir)
	_, err = e.Bring(context.Background(), walked)
	require.NoError(t, err)
	require.NotNil(t, e.trees["node_modules"], "the copy is listed while it is brought up to date")
	// The first worktree got its files by a walk (the listing is made
	// during it); the second from the listing.
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", filepath.Join(dir, ".autobuild", "worktrees", "phase-2"))
	planted := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	res, err := e.Bring(context.Background(), planted)
	require.NoError(t, err)
	require.Equal(t, Stats{Files: 7, Bytes: e.cacheBytes, Put: 7}, res.Stats)
	cache := e.cacheDir
	for _, entry := range []string{"node_modules", "gen", ".env"} {
		w, p := listing(t, filepath.Join(walked, entry), filepath.Join(cache, entry)), listing(t, filepath.Join(planted, entry), filepath.Join(cache, entry))
		require.Equal(t, w, p, entry)
	}
	require.Contains(t, listing(t, filepath.Join(planted, "node_modules"), filepath.Join(cache, "node_modules"))["a/index.js"], "linked")
	require.NotContains(t, listing(t, filepath.Join(planted, "gen"), filepath.Join(cache, "gen"))["api/types.go"], "linked",
		"generated code is not a dependency folder's: copied")
}

// TestPlantFallsBackToTheCopy: a file removed from autobuild's copy by
// hand after it was listed: the worktree is given what the copy holds.
func TestPlantFallsBackToTheCopy(t *testing.T) {
	dir, wt := nodeRepo(t)
	e := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	_, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(e.cacheDir, "node_modules/ms/package.json")))
	second := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", second)
	_, err = e.Bring(context.Background(), second)
	require.NoError(t, err)
	require.Equal(t, "module.exports = 1\n", read(t, filepath.Join(second, "node_modules/ms/index.js")))
	_, err = os.Stat(filepath.Join(second, "node_modules/ms/package.json"))
	require.True(t, os.IsNotExist(err))
}

// TestPutBeforeTheCheckoutThenCheck: Put may run before the worktree's
// tracked files are there (beside its checkout); Check, after them,
// drops what the worktree's own rules do not ignore.
func TestPutBeforeTheCheckoutThenCheck(t *testing.T) {
	dir := repo(t, map[string]string{".gitignore": "node_modules/\n.autobuild/\n", "a.txt": "a\n"},
		map[string]string{"node_modules/m/index.js": "m\n"})
	// Your checkout ignores .env without having committed the rule.
	write(t, filepath.Join(dir, ".gitignore"), "node_modules/\n.autobuild/\n.env\n")
	write(t, filepath.Join(dir, ".env"), "A=1\n")
	wt := filepath.Join(dir, ".autobuild", "worktrees", "phase-1")
	gitIn(t, dir, "worktree", "add", "-q", "--no-checkout", "-b", "phase-1", wt)
	e := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	res, err := e.Put(context.Background(), wt)
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(wt, ".env"))
	gitIn(t, wt, "reset", "-q", "--hard")
	res, err = e.Check(context.Background(), wt, res)
	require.NoError(t, err)
	require.Equal(t, []string{".env"}, res.Dropped, "the committed .gitignore does not ignore .env")
	require.NoFileExists(t, filepath.Join(wt, ".env"))
	require.Equal(t, "m\n", read(t, filepath.Join(wt, "node_modules/m/index.js")))
	require.Empty(t, strings.TrimSpace(gitIn(t, wt, "status", "--porcelain")))
}

// TestReusedWorktreeBroughtUpToDate: a worktree whose files were brought
// in this run (a pooled one, the verification worktree) is brought up to
// date by a stat per folder, and still loses what an agent added, gets
// back what it removed or replaced, and a copied file edited in place.
func TestReusedWorktreeBroughtUpToDate(t *testing.T) {
	dir := repo(t, map[string]string{".gitignore": "node_modules/\n.env\n.autobuild/\ngen/\n", "index.js": "x\n"},
		map[string]string{".env": "A=1\n", "node_modules/a/index.js": "a\n", "node_modules/a/lib/deep/x.js": "x\n",
			"node_modules/b/package.json": "{}\n", "gen/api/types.go": "package api\n"})
	pats, err := Patterns(dir, []string{".env", "node_modules", "gen"})
	require.NoError(t, err)
	e := New(dir, filepath.Join(dir, ".autobuild", "worktree-files"), pats, Ops{Clone: noClone, Link: os.Link})
	_, err = e.Bring(context.Background(), worktree(t, dir))
	require.NoError(t, err)
	wt := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", wt)
	_, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	want := map[string]map[string]string{}
	for _, en := range []string{"node_modules", "gen"} {
		want[en] = listing(t, filepath.Join(wt, en), filepath.Join(e.cacheDir, en))
	}

	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Stats{Files: 5, Bytes: e.cacheBytes, Kept: 5}, res.Stats, "nothing changed, nothing put")

	// What an agent does in the worktree.
	write(t, filepath.Join(wt, "node_modules/a/added.js"), "new\n")
	require.NoError(t, os.Remove(filepath.Join(wt, "node_modules/a/index.js")))
	write(t, filepath.Join(wt, "node_modules/a/index.js"), "replaced\n")
	require.NoError(t, os.RemoveAll(filepath.Join(wt, "node_modules/b")))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "gen/api/types.go"), []byte("package edited\n"), 0o644))
	res, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	for _, en := range []string{"node_modules", "gen"} {
		require.Equal(t, want[en], listing(t, filepath.Join(wt, en), filepath.Join(e.cacheDir, en)), en)
	}
	require.Equal(t, 3, res.Stats.Put, "a/index.js, b/package.json, gen/api/types.go: %+v", res.Stats)
	require.Equal(t, 1, res.Stats.Removed, "a/added.js")

	res, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Zero(t, res.Stats.Put+res.Stats.Removed, "up to date again: %+v", res.Stats)
}

// TestSameIgnoreRules: git's check of the entries in the worktree is
// skipped only while every .gitignore above each entry reads the same.
func TestSameIgnoreRules(t *testing.T) {
	dir := repo(t, map[string]string{".gitignore": ".autobuild/\n", "packages/app/.gitignore": "node_modules/\n.env\n", "packages/app/a.js": "a\n"},
		map[string]string{"packages/app/.env": "A=1\n", "packages/app/node_modules/m/index.js": "m\n"})
	wt := worktree(t, dir)
	e := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	_, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Len(t, e.Entries(), 2)
	require.True(t, e.sameIgnoreRules(wt))

	write(t, filepath.Join(wt, "packages/.gitignore"), "# a new one between\n")
	require.False(t, e.sameIgnoreRules(wt), "a .gitignore only the worktree has")
	require.NoError(t, os.Remove(filepath.Join(wt, "packages/.gitignore")))
	write(t, filepath.Join(wt, "packages/app/.gitignore"), "node_modules/\n")
	require.False(t, e.sameIgnoreRules(wt), "the worktree's no longer ignores .env")
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, []string{"packages/app/.env"}, res.Dropped)
	require.NoError(t, os.Remove(filepath.Join(dir, ".gitignore")))
	write(t, filepath.Join(wt, "packages/app/.gitignore"), "node_modules/\n.env\n")
	require.False(t, e.sameIgnoreRules(wt), "a .gitignore only your checkout has")
}
