// Package wtenv makes a phase's worktree ready to work in: the ignored
// files of your checkout that [worktree] copy and .worktreeinclude name
// (a .env, node_modules, a .venv), brought in as copy-on-write clones,
// hard links to autobuild's own copy, or plain copies; the setup and
// teardown commands; and a range of ports per running phase.
// docs/running.md#the-worktrees-environment is the user's side of it.
package wtenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// Config is autobuild.toml's [worktree] table.
type Config struct {
	// Copy holds include patterns in gitignore syntax, as .worktreeinclude.
	Copy []string
	// Setup runs in each new worktree before the agent; Teardown when the
	// phase is done with it. Shell command lines; "" is none.
	Setup, Teardown string
	// Ports is how many ports each running phase gets (DefaultPorts when
	// 0); PortBase the first port of the first phase (DefaultPortBase).
	Ports, PortBase int
}

// Env brings the selected files into the worktrees of one run. It finds
// the files and picks the mode at its first use, and keeps its copy for
// hard links (in cacheDir) up to date once per run.
type Env struct {
	root, cacheDir string
	patterns       []string
	ops            Ops

	once    sync.Once
	initErr error
	entries []Entry
	mode    Mode
	why     string
	// cacheClone is set in Link mode where the file system clones too:
	// autobuild's copy is made of clones of your files (no data blocks of
	// its own), and the files that are not linked are cloned, not copied.
	cacheClone bool
	// snapshots is set where autobuild's copy of each folder can be a
	// btrfs subvolume that new worktrees get a snapshot of (snapshot.go).
	snapshots bool

	cacheMu   sync.Mutex
	cacheDone bool
	// trees list autobuild's copy of each folder entry, made while the
	// copy is brought up to date: a new worktree's are planted from them.
	trees map[string]*node
	// stamp is the time the folders brought in this run are given
	// (refresh.go); snapStamps the one each snapshot's folders carry, by
	// entry (stampSnapshotSource).
	stamp      time.Time
	snapStamps map[string]time.Time
	// cacheBytes is what the entries hold, counted while the copy is
	// brought up to date (a link is made without reading its size).
	cacheBytes int64
}

// New is the Env of the checkout at root; cacheDir holds autobuild's copy
// for hard links (under .autobuild/). patterns are Patterns' result.
func New(root, cacheDir string, patterns []string, ops Ops) *Env {
	return &Env{root: root, cacheDir: cacheDir, patterns: patterns, ops: ops, stamp: runStamp(time.Now())}
}

// Result is what Bring did for one worktree.
type Result struct {
	Entries []Entry
	Mode    Mode
	Stats   Stats
	// Took is how long it took.
	Took time.Duration
	// Dropped lists entries removed again because the worktree's own
	// ignore rules do not ignore them: copied, they could be committed.
	Dropped []string
}

// Active reports whether there are patterns at all.
func (e *Env) Active() bool { return len(e.patterns) > 0 }

// Choice says once what each worktree gets and how: "node_modules/, .env:
// hard links to autobuild's copy (this file system cannot clone)". It is
// "" before the first Bring and when nothing is selected.
func (e *Env) Choice() string {
	if len(e.entries) == 0 {
		return ""
	}
	var linked []Entry
	for _, en := range e.entries {
		if linkable(en.Path) || en.Dir {
			linked = append(linked, en)
		}
	}
	how := string(e.mode)
	var folders []Entry
	for _, en := range e.entries {
		if en.Dir {
			folders = append(folders, en)
		}
	}
	switch {
	case e.snapshots && len(folders) > 0:
		how = "copy-on-write snapshots of autobuild's copy in .autobuild/ (btrfs subvolumes, clones of yours) for folders (" + List(folders) + "), clones of the rest"
	case e.mode == Link && len(linked) == 0 && e.cacheClone:
		how = string(Clone)
	case e.mode == Link && len(linked) == 0:
		how = string(Copy)
	case e.mode == Link && e.cacheClone:
		how = "hard links to autobuild's copy in .autobuild/ (copy-on-write clones of yours) for the files of dependency folders (" + List(linked) + "), clones of the rest"
	case e.mode == Link:
		how = "hard links to autobuild's copy in .autobuild/ for the files of dependency folders (" + List(linked) + "), copies of the rest"
	}
	line := List(e.entries) + ": " + how
	if e.why != "" {
		line += " (" + e.why + ")"
	}
	return line
}

// List names entries for people: "node_modules/, .env".
func List(es []Entry) string {
	names := make([]string, len(es))
	for i, en := range es {
		names[i] = en.String()
	}
	return strings.Join(names, ", ")
}

func (e *Env) init(ctx context.Context, wt string) error {
	e.once.Do(func() {
		e.entries, e.initErr = Select(ctx, e.root, e.patterns)
		if e.initErr != nil || len(e.entries) == 0 {
			return
		}
		e.mode, e.why, e.cacheClone = probe(e.ops, sampleFile(e.root, e.entries), e.cacheDir, filepath.Dir(wt))
		e.snapshots = e.mode == Link && e.cacheClone && snapshotsWork(e.ops, e.cacheDir, filepath.Dir(wt))
	})
	return e.initErr
}

// Bring makes the selected files present in the worktree wt, as they are
// in your checkout: all of them in a new worktree; in a reused one only
// what changed, with what the checkout no longer has removed. It is Put,
// then Check.
func (e *Env) Bring(ctx context.Context, wt string) (Result, error) {
	res, err := e.Put(ctx, wt)
	if err != nil {
		return res, err
	}
	return e.Check(ctx, wt, res)
}

// Put is Bring without its check against the worktree's own ignore
// rules, so it may run while git writes the worktree's tracked files (the
// entries are paths git ignores, which a checkout never writes): the
// worktree is then ready in the longer of the two, not their sum. Check
// must follow once the worktree's files are written.
func (e *Env) Put(ctx context.Context, wt string) (Result, error) {
	start := time.Now()
	if !e.Active() {
		return Result{}, nil
	}
	if err := e.init(ctx, wt); err != nil {
		return Result{}, err
	}
	res := Result{Entries: e.entries, Mode: e.mode}
	if e.snapshots {
		res.Mode = Snapshot
	}
	if len(e.entries) == 0 {
		return res, nil
	}
	from, t := e.root, e.transfer()
	if e.mode == Link {
		if err := e.syncCache(); err != nil {
			return res, err
		}
		from = e.cacheDir
	}
	for _, en := range e.entries {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		st, err := e.putEntry(filepath.Join(from, filepath.FromSlash(en.Path)), filepath.Join(wt, filepath.FromSlash(en.Path)), en.Path, t)
		res.Stats.add(st)
		if err != nil {
			return res, fmt.Errorf("bringing %s into the worktree: %w", en, err)
		}
	}
	if e.mode == Link {
		res.Stats.Bytes = e.cacheBytes
	}
	res.Took = time.Since(start)
	return res, nil
}

// putEntry brings one entry. In hard-link mode a folder is planted from
// the listing of autobuild's copy where the worktree has nothing yet, and
// refreshed where it has (a reused worktree: refresh.go); else mirrored.
func (e *Env) putEntry(src, dst, rel string, t transfer) (Stats, error) {
	n := e.trees[rel]
	if n == nil {
		return mirror(src, dst, rel, t)
	}
	if e.snapshots {
		// Within a snapshot files are cloned: a hard link cannot cross
		// from one subvolume to another.
		t = e.cacheTransfer()
	} else if err := dropSubvolume(e.ops, dst); err != nil {
		// A snapshot from a run that had them: its files could never be
		// linked again (EXDEV), so it is planted anew.
		return Stats{}, err
	}
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		// In a snapshot every file is the worktree's own, which an edit
		// in place changes alone: each is compared.
		return refresh(src, dst, rel, n, t, e.stampOf(rel), e.snapshots)
	}
	if e.snapshots {
		if st, err := e.snapshot(src, dst, n); err == nil {
			return st, nil
		}
		// A snapshot refused (the copy is no longer a subvolume): the
		// folder is planted with clones instead.
	}
	st, err := plant(src, dst, rel, n, t, e.stamp)
	if err == nil {
		return st, nil
	}
	// The copy changed under the listing (removed by hand): what was
	// planted goes, and the copy is read again.
	if rerr := gitx.RemoveAll(dst); rerr != nil {
		return st, errors.Join(err, rerr)
	}
	st, err = mirror(src, dst, rel, t)
	if err == nil {
		stampAll(dst, n, e.stamp)
	}
	return st, err
}

// Check ends a Bring whose Put ran before the worktree's tracked files
// were written: entries the worktree's ignore rules do not ignore (the
// phase's base changed .gitignore) are removed again, as they could be
// committed. res is Put's result; its Took grows by the check's time.
func (e *Env) Check(ctx context.Context, wt string, res Result) (Result, error) {
	if len(res.Entries) == 0 {
		return res, nil
	}
	start := time.Now()
	if e.sameIgnoreRules(wt) {
		res.Took += time.Since(start)
		return res, nil
	}
	dropped, err := e.dropUnignored(ctx, wt)
	res.Dropped, res.Took = dropped, res.Took+time.Since(start)
	return res, err
}

// sameIgnoreRules reports whether each .gitignore that decides whether an
// entry is ignored (the one in each folder above it, the root's included)
// reads the same in the worktree wt as in your checkout. The rest of what
// git reads (.git/info/exclude, core.excludesFile) the worktree shares
// with your checkout, so git then ignores every entry there as it does in
// your checkout, where each was selected for being ignored: the check by
// git (dropUnignored, a process walking the worktree) is not needed.
func (e *Env) sameIgnoreRules(wt string) bool {
	seen := map[string]bool{}
	for _, en := range e.entries {
		for d := parentDir(en.Path); ; d = parentDir(d) {
			if !seen[d] {
				seen[d] = true
				f := filepath.Join(filepath.FromSlash(d), ".gitignore")
				mine, merr := os.ReadFile(filepath.Join(e.root, f))
				theirs, terr := os.ReadFile(filepath.Join(wt, f))
				switch {
				case merr == nil && terr == nil:
					if !bytes.Equal(mine, theirs) {
						return false
					}
				case !errors.Is(merr, fs.ErrNotExist) || !errors.Is(terr, fs.ErrNotExist):
					return false
				}
			}
			if d == "" {
				break
			}
		}
	}
	return true
}

// dropUnignored removes entries the worktree's ignore rules do not ignore
// (the phase's base changed .gitignore): they would be committed.
func (e *Env) dropUnignored(ctx context.Context, wt string) ([]string, error) {
	ignored, err := gitx.IgnoredPaths(ctx, wt, "")
	if err != nil {
		return nil, fmt.Errorf("checking that the copied files are ignored in the worktree: %w", err)
	}
	set := map[string]bool{}
	for _, p := range ignored {
		set[strings.TrimSuffix(p, "/")] = true
	}
	var dropped []string
	for _, en := range e.entries {
		in := false
		for p := en.Path; p != "" && !in; p = parentDir(p) {
			in = set[p]
		}
		if !in {
			if err := gitx.RemoveAll(filepath.Join(wt, filepath.FromSlash(en.Path))); err != nil {
				return dropped, err
			}
			dropped = append(dropped, en.String())
		}
	}
	return dropped, nil
}

// transfer is the mode's way of putting a file in a worktree.
func (e *Env) transfer() transfer {
	switch e.mode {
	case Clone:
		return transfer{same: sameContent, put: func(src, dst, _ string, fi fs.FileInfo) error {
			if err := cloneOrCopy(e.ops.Clone, src, dst, fi.Mode()); err != nil {
				return err
			}
			return keepTime(dst, fi)
		}}
	case Link:
		return transfer{
			same: func(src, dst fs.FileInfo, rel string) bool {
				if linkable(rel) {
					return os.SameFile(src, dst)
				}
				return sameContent(src, dst, rel)
			},
			link: func(src, dst, rel string) bool {
				return linkable(rel) && e.ops.Link(src, dst) == nil
			},
			put: func(src, dst, rel string, fi fs.FileInfo) error {
				if linkable(rel) {
					if err := e.ops.Link(src, dst); err == nil {
						return nil
					}
				}
				if err := e.fileCopy(src, dst, fi.Mode()); err != nil {
					return err
				}
				return keepTime(dst, fi)
			}}
	}
	return copyTransfer
}

// fileCopy puts a file that is not linked: a clone when cacheClone is
// set (or a copy where that clone fails), else a copy.
func (e *Env) fileCopy(src, dst string, mode fs.FileMode) error {
	if e.cacheClone {
		return cloneOrCopy(e.ops.Clone, src, dst, mode)
	}
	return copyFile(src, dst, mode)
}

// cacheTransfer makes autobuild's own copy: clones of your files when
// cacheClone is set (a separate inode each, whose blocks are shared with
// yours until either side writes), else copies.
func (e *Env) cacheTransfer() transfer {
	if !e.cacheClone {
		return copyTransfer
	}
	return transfer{same: sameContent, put: func(src, dst, _ string, fi fs.FileInfo) error {
		if err := cloneOrCopy(e.ops.Clone, src, dst, fi.Mode()); err != nil {
			return err
		}
		return keepTime(dst, fi)
	}}
}

// copyTransfer copies: autobuild's own copy is made so, and every
// worktree where nothing better works.
var copyTransfer = transfer{same: sameContent, put: func(src, dst, _ string, fi fs.FileInfo) error {
	if err := copyFile(src, dst, fi.Mode()); err != nil {
		return err
	}
	return keepTime(dst, fi)
}}

// syncCache brings autobuild's copy up to date with your checkout, once
// per run. The worktrees' hard links point at it, never at your files: an
// edit made through a link in a worktree cannot reach your checkout, and
// a file that changed in your checkout is copied anew (a new inode), so
// the worktrees linked to the old one keep what they had.
func (e *Env) syncCache() error {
	e.cacheMu.Lock()
	defer e.cacheMu.Unlock()
	if e.cacheDone {
		return nil
	}
	if err := os.MkdirAll(e.cacheDir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", e.cacheDir, err)
	}
	keep := map[string]bool{}
	e.trees = map[string]*node{}
	for _, en := range e.entries {
		keep[strings.SplitN(en.Path, "/", 2)[0]] = true
		switch {
		case e.snapshots && en.Dir:
			if err := ensureSubvolume(e.ops, filepath.Join(e.cacheDir, filepath.FromSlash(en.Path))); err != nil {
				return fmt.Errorf("making autobuild's copy of %s a subvolume: %w", en, err)
			}
		case !e.snapshots:
			// Made by a run that had snapshots: a hard link cannot leave
			// a subvolume (EXDEV), so it is made a plain folder again.
			if err := dropSubvolume(e.ops, filepath.Join(e.cacheDir, filepath.FromSlash(en.Path))); err != nil {
				return fmt.Errorf("making autobuild's copy of %s a plain folder: %w", en, err)
			}
		}
		st, tree, err := mirrorListed(filepath.Join(e.root, filepath.FromSlash(en.Path)), filepath.Join(e.cacheDir, filepath.FromSlash(en.Path)), en.Path, e.cacheTransfer(), en.Dir)
		if err != nil {
			return fmt.Errorf("updating autobuild's copy of %s in %s: %w", en, e.cacheDir, err)
		}
		e.cacheBytes += st.Bytes
		if tree != nil && tree.fi != nil && tree.fi.IsDir() {
			e.trees[en.Path] = tree
			if e.snapshots {
				e.stampSnapshotSource(en.Path, tree, st)
			}
		}
	}
	// What is no longer selected goes.
	old, _ := os.ReadDir(e.cacheDir)
	for _, d := range old {
		if !keep[d.Name()] {
			_ = gitx.RemoveAll(filepath.Join(e.cacheDir, d.Name()))
		}
	}
	e.cacheDone = true
	return nil
}

// sampleFile is a regular file among the entries, to probe cloning with.
func sampleFile(root string, es []Entry) string {
	for _, en := range es {
		p := filepath.Join(root, filepath.FromSlash(en.Path))
		if !en.Dir {
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
			continue
		}
		found := ""
		_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil || found != "" {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				found = path
				return filepath.SkipAll
			}
			return nil
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// KeepPatterns are the entries as `git clean -e` patterns: a reused
// worktree keeps them, and Bring brings them up to date.
func (e *Env) KeepPatterns() []string {
	var out []string
	for _, en := range e.entries {
		out = append(out, "/"+globEscape.Replace(en.Path))
	}
	return out
}

// globEscape makes a path a literal gitignore pattern.
var globEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "!", `\!`, "#", `\#`)

// Entries are the selected entries, known after the first Bring.
func (e *Env) Entries() []Entry { return e.entries }
