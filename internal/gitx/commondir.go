package gitx

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// commonFiles are the files and directories of the common git dir that
// every worktree shares and that change what git does or sees in your
// checkout: what it ignores (info/exclude), its settings, its hooks, where
// it finds objects. The refs are read as refs (Refs), so packed-refs is not
// among them; worktrees/ holds the phases' own admin dirs.
var commonFiles = []string{"config", "config.worktree", "info", "hooks", "objects/info/alternates", "shallow"}

// CommonFiles returns a fingerprint of the common git dir's shared files:
// each file's path relative to the common dir and the hash of its content
// (a symbolic link's target). Missing ones are absent; a directory is
// walked (at most a few thousand entries are expected: hooks, info).
func (r *Repo) CommonFiles() (map[string]string, error) {
	out := map[string]string{}
	for _, name := range commonFiles {
		root := filepath.Join(r.commonDir, filepath.FromSlash(name))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			rel, _ := filepath.Rel(r.commonDir, p)
			rel = filepath.ToSlash(rel)
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				target, err := os.Readlink(p)
				if err != nil {
					return err
				}
				out[rel] = "link:" + target
			case d.IsDir():
				if p != root {
					out[rel+"/"] = "dir"
				}
			case d.Type().IsRegular():
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				sum := sha256.Sum256(b)
				fi, _ := d.Info()
				mode := ""
				if fi != nil && fi.Mode()&0o111 != 0 {
					mode = "x:"
				}
				out[rel] = mode + hex.EncodeToString(sum[:])
			default:
				out[rel] = "special"
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// UserFiles returns a fingerprint, as CommonFiles does and keyed by their
// full paths, of the files outside the repository that change what git
// sees in it: your global configuration (~/.gitconfig, or the file
// GIT_CONFIG_GLOBAL names, and $XDG_CONFIG_HOME/git/config), the global
// ignore and attributes files, and the file core.excludesFile names. An
// agent that adds `src/` to one of them hides its work from git as an
// edit of info/exclude does.
func (r *Repo) UserFiles(ctx context.Context) map[string]string {
	var paths []string
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		paths = append(paths, g)
	} else if home != "" {
		paths = append(paths, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		for _, name := range []string{"config", "ignore", "attributes"} {
			paths = append(paths, filepath.Join(xdg, "git", name))
		}
	}
	if out, err := run(ctx, r.root, runOpts{env: noOptionalLocks}, "config", "--path", "--get", "core.excludesFile"); err == nil {
		if p := strings.TrimSpace(out); p != "" {
			if !filepath.IsAbs(p) {
				p = filepath.Join(r.root, p)
			}
			paths = append(paths, p)
		}
	}
	out := map[string]string{}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			sum := sha256.Sum256(b)
			out[p] = hex.EncodeToString(sum[:])
		}
	}
	return out
}

// CommonPath names rel (relative to the common git dir) for a person: .git/rel
// when the common dir is the root's .git, else its full path.
func (r *Repo) CommonPath(rel string) string {
	if filepath.IsAbs(rel) {
		return rel // a file outside the common dir (UserFiles)
	}
	if r.commonDir == filepath.Join(r.root, ".git") {
		return ".git/" + rel
	}
	return filepath.Join(r.commonDir, filepath.FromSlash(rel))
}

// Refs returns the object each branch and tag names (refs/heads/…,
// refs/tags/…), loose and packed alike.
func (r *Repo) Refs(ctx context.Context) (map[string]string, error) {
	out, err := run(ctx, r.root, runOpts{env: noOptionalLocks}, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/", "refs/tags/")
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, l := range lines(out) {
		if sha, name, ok := strings.Cut(l, " "); ok {
			refs[name] = sha
		}
	}
	return refs, nil
}

// WorktreeCommits returns every commit the HEAD reflogs of the linked
// worktrees under dir name (every commit HEAD pointed at there, whatever
// branch it was on, commits made there included), each with its
// worktree's path. Empty when reflogs are off.
func (r *Repo) WorktreeCommits(under string) (map[string]string, error) {
	admins, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees"))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, a := range admins {
		admin := filepath.Join(r.commonDir, "worktrees", a.Name())
		b, err := os.ReadFile(filepath.Join(admin, "gitdir"))
		if err != nil {
			continue
		}
		named := strings.TrimRight(string(b), "\r\n")
		if !filepath.IsAbs(named) {
			named = filepath.Join(admin, named)
		}
		wt := filepath.Dir(filepath.Clean(named))
		if !isUnder(wt, under) && !isUnder(realPath(wt), realPath(under)) {
			continue
		}
		if err := readReflog(filepath.Join(admin, "logs", "HEAD"), wt, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readReflog adds the new value of every entry of the reflog at path to
// seen, as made in wt.
func readReflog(path, wt string, seen map[string]string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 2 {
			seen[fields[1]] = wt
		}
	}
	return sc.Err()
}

// CheckedOut returns the branches (refs/heads/…) that a worktree of the
// repository has checked out, your checkout's included: each HEAD file of
// the common dir and of its worktrees/ that names one.
func (r *Repo) CheckedOut() map[string]bool {
	heads := []string{filepath.Join(r.commonDir, "HEAD")}
	if admins, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees")); err == nil {
		for _, a := range admins {
			heads = append(heads, filepath.Join(r.commonDir, "worktrees", a.Name(), "HEAD"))
		}
	}
	out := map[string]bool{}
	for _, h := range heads {
		b, err := os.ReadFile(h)
		if err != nil {
			continue
		}
		if ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: "); ok {
			out[ref] = true
		}
	}
	return out
}

// FirstParents returns up to n commits of from's first-parent chain,
// from itself down.
func (r *Repo) FirstParents(ctx context.Context, from string, n int) ([]string, error) {
	out, err := run(ctx, r.root, runOpts{}, "rev-list", "--first-parent", "-n", strconv.Itoa(n), from)
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}
