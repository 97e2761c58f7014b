package gitx

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// UntrackedInTheWay returns the files of the root's work tree that a
// checkout of paths (relative to the root, as a landing writes them) would
// overwrite or remove although git does not track them: a file or
// directory at one of the paths, or a file or symbolic link where one of
// their parent directories would go, that the index does not hold. Those
// are ignored files (git refuses to overwrite an untracked one that is not
// ignored, and overwrites an ignored one without a word: `merge
// --ff-only`, `merge --squash`). Only paths found on disk are asked of git.
func (r *Repo) UntrackedInTheWay(ctx context.Context, paths []string) ([]string, error) {
	var found []string
	seen := map[string]bool{}
	for _, p := range paths {
		p = strings.TrimSuffix(path.Clean(p), "/")
		if p == "." || p == "" || seen[p] {
			continue
		}
		seen[p] = true
		// A parent that is a file (or a link) is in the way of the path.
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if seen[dir+"/"] {
				break
			}
			seen[dir+"/"] = true
			fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(dir)))
			if err == nil && !fi.IsDir() {
				found = append(found, dir)
			}
		}
		if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err == nil {
			found = append(found, p)
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return nil, err
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	slices.Sort(found)
	found = slices.Compact(found)
	tracked, err := r.trackedOf(ctx, found)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range found {
		if !tracked[f] {
			out = append(out, f)
		}
	}
	return out, nil
}

// trackedOf returns which of paths the root's index holds as a file (a
// directory holding tracked files is not one of them). The paths are
// literal, a few hundred to a command (ls-files of git 2.39 reads no
// pathspec file).
func (r *Repo) trackedOf(ctx context.Context, paths []string) (map[string]bool, error) {
	o := runOpts{env: append([]string{"GIT_LITERAL_PATHSPECS=1"}, noOptionalLocks...)}
	tracked := map[string]bool{}
	for chunk := range slices.Chunk(paths, 256) {
		out, err := run(ctx, r.root, o, append([]string{"ls-files", "-z", "--cached", "--"}, chunk...)...)
		if err != nil {
			return nil, err
		}
		for p := range strings.SplitSeq(out, "\x00") {
			if p != "" {
				tracked[p] = true
			}
		}
	}
	return tracked, nil
}
