package wtenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// Stats count what a mirror did.
type Stats struct {
	// Files are the regular files and links the entries hold; Bytes their
	// size.
	Files int
	Bytes int64
	// Put counts the files written (cloned, linked or copied), Kept those
	// already up to date, Removed those that are no longer in the source.
	Put, Kept, Removed int
}

func (s *Stats) add(o Stats) {
	s.Files += o.Files
	s.Bytes += o.Bytes
	s.Put += o.Put
	s.Kept += o.Kept
	s.Removed += o.Removed
}

// transfer is how one regular file is put in place and when a file
// already there is up to date.
type transfer struct {
	put  func(src, dst, rel string, fi fs.FileInfo) error
	same func(src fs.FileInfo, dst fs.FileInfo, rel string) bool
	// link, when set, puts a regular file where nothing is yet without
	// reading its source's attributes first, and reports whether it did:
	// a hard link needs none, which spares a stat per file.
	link func(src, dst, rel string) bool
}

// sameContent: same size and modification time, which every put keeps.
func sameContent(src, dst fs.FileInfo, _ string) bool {
	return dst.Mode().IsRegular() && src.Size() == dst.Size() && src.ModTime().Equal(dst.ModTime()) && src.Mode().Perm() == dst.Mode().Perm()
}

// mirror makes dst hold what src holds (a file or a folder, recursively):
// missing files are put, changed ones replaced, files src no longer has
// removed, and what is up to date is left alone. The replaced file is
// removed before the new one is made, so a hard link never carries a
// write through to the file it shared an inode with.
func mirror(src, dst, rel string, t transfer) (Stats, error) {
	st, _, err := mirrorListed(src, dst, rel, t, false)
	return st, err
}

// mirrorListed is mirror that, when list is set, also returns what src
// holds (the listing plant puts into a new worktree from).
func mirrorListed(src, dst, rel string, t transfer, list bool) (Stats, *node, error) {
	fresh := false
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		fresh = true
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return Stats{}, nil, err
		}
	}
	m := &mirrorer{t: t, sem: make(chan struct{}, dirWorkers)}
	var n *node
	if list {
		n = &node{name: filepath.Base(src)}
	}
	m.fail(m.path(src, dst, rel, fresh, n))
	m.wg.Wait()
	if m.err != nil {
		n = nil
	}
	return m.st, n, m.err
}

// mirrorer walks one mirror. Folders are handed to up to dirWorkers
// goroutines, each putting its folder's files one after another: files
// of one folder contend for its lock, files of different folders do not.
type mirrorer struct {
	t   transfer
	wg  sync.WaitGroup
	sem chan struct{}
	mu  sync.Mutex
	st  Stats
	err error
}

const dirWorkers = 4

func (m *mirrorer) note(s Stats) {
	m.mu.Lock()
	m.st.add(s)
	m.mu.Unlock()
}

func (m *mirrorer) fail(err error) {
	if err == nil {
		return
	}
	m.mu.Lock()
	if m.err == nil {
		m.err = err
	}
	m.mu.Unlock()
}

// path mirrors src, and lists it in n when n is not nil.
func (m *mirrorer) path(src, dst, rel string, fresh bool, n *node) error {
	fi, err := os.Lstat(src)
	if err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	var st Stats
	err = m.entry(src, dst, rel, fi, fresh, &st, n)
	m.note(st)
	return err
}

// entry mirrors one file, link or folder whose source is described by fi,
// counting in st, and lists it in n when n is not nil.
func (m *mirrorer) entry(src, dst, rel string, fi fs.FileInfo, fresh bool, st *Stats, n *node) error {
	if n != nil {
		n.fi = fi
	}
	var have fs.FileInfo
	if !fresh {
		var err error
		have, err = os.Lstat(dst)
		if errors.Is(err, fs.ErrNotExist) {
			fresh = true
		} else if err != nil {
			return err
		}
	}
	switch {
	case fi.IsDir():
		return m.dir(src, dst, rel, fi, have, fresh, n)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		if n != nil {
			n.target = target
		}
		st.Files++
		if have != nil {
			if old, err := os.Readlink(dst); err == nil && old == target {
				st.Kept++
				return nil
			}
			if err := gitx.RemoveAll(dst); err != nil {
				return err
			}
		}
		st.Put++
		return os.Symlink(target, dst)
	case fi.Mode().IsRegular():
		st.Files++
		st.Bytes += fi.Size()
		if have != nil {
			if m.t.same(fi, have, rel) {
				st.Kept++
				return nil
			}
			if err := gitx.RemoveAll(dst); err != nil {
				return err
			}
		}
		if err := m.t.put(src, dst, rel, fi); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		st.Put++
	}
	return nil // sockets, fifos, devices: nothing to copy
}

func (m *mirrorer) dir(src, dst, rel string, fi, have fs.FileInfo, fresh bool, n *node) error {
	if have != nil && !have.IsDir() {
		if err := gitx.RemoveAll(dst); err != nil {
			return err
		}
		fresh = true
	}
	if fresh || have == nil {
		if err := os.Mkdir(dst, fi.Mode().Perm()|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fresh = true
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	var st Stats
	defer func() { m.note(st) }()
	if !fresh {
		want := make(map[string]bool, len(entries))
		for _, e := range entries {
			want[e.Name()] = true
		}
		old, err := os.ReadDir(dst)
		if err != nil {
			return err
		}
		for _, e := range old {
			if !want[e.Name()] {
				if err := gitx.RemoveAll(filepath.Join(dst, e.Name())); err != nil {
					return err
				}
				st.Removed++
			}
		}
	}
	if n != nil {
		n.kids = make([]*node, 0, len(entries))
	}
	for _, e := range entries {
		name := e.Name()
		s, d, r := filepath.Join(src, name), filepath.Join(dst, name), rel+"/"+name
		var kid *node
		if n != nil {
			kid = &node{name: name}
			n.kids = append(n.kids, kid)
		}
		if e.IsDir() {
			m.subdir(s, d, r, fresh, kid)
			continue
		}
		if kid == nil && fresh && e.Type().IsRegular() && m.t.link != nil && m.t.link(s, d, r) {
			st.Files++
			st.Put++
			continue
		}
		info, err := e.Info()
		if err != nil {
			return fmt.Errorf("reading %s: %w", s, err)
		}
		if err := m.entry(s, d, r, info, fresh, &st, kid); err != nil {
			return err
		}
	}
	return nil
}

// subdir mirrors a folder in a goroutine of its own when one is free,
// else in this one.
func (m *mirrorer) subdir(src, dst, rel string, fresh bool, n *node) {
	select {
	case m.sem <- struct{}{}:
		m.wg.Add(1)
		go func() {
			defer func() { <-m.sem; m.wg.Done() }()
			m.fail(m.path(src, dst, rel, fresh, n))
		}()
	default:
		m.fail(m.path(src, dst, rel, fresh, n))
	}
}

// keepTime gives dst src's modification time, which sameContent reads.
func keepTime(dst string, fi fs.FileInfo) error {
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

// depFolders are the folders whose files package managers write and
// replace whole (unlink, then a new file) rather than edit in place: the
// only files autobuild hard-links.
var depFolders = map[string]bool{
	"node_modules": true, "bower_components": true, ".venv": true, "venv": true, ".tox": true,
	".nox": true, "__pypackages__": true, ".yarn": true, ".pnpm-store": true, "vendor": true,
}

// linkable reports whether the file at rel lies in a dependency folder.
func linkable(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		if depFolders[seg] {
			return true
		}
	}
	return false
}
