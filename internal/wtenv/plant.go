package wtenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// node is one file, link or folder of autobuild's copy, listed while the
// copy is brought up to date (once per run): a new worktree is then given
// its entries from the listing alone, a mkdir per folder and a link per
// file, without reading the copy's folders again for each worktree.
type node struct {
	name string
	// fi describes the file in your checkout, which the copy's file
	// matches (mode and modification time; a folder's mode).
	fi fs.FileInfo
	// target is a symbolic link's.
	target string
	kids   []*node
}

// plant puts the listed tree n, whose files are at src, at dst, where
// nothing is yet: folders made, files put by t, links made. Folders are
// handed to up to plantWorkers goroutines. Each folder made is given the
// modification time stamp once all its entries are in it (see unchanged).
func plant(src, dst, rel string, n *node, t transfer, stamp time.Time) (Stats, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return Stats{}, err
	}
	p := &planter{newWorkers(t, stamp)}
	var st Stats
	if n.fi.IsDir() {
		if err := mkdir(dst, n); err != nil {
			return Stats{}, err
		}
	}
	p.fail(p.put(src, dst, rel, n, &st))
	p.note(st)
	p.wg.Wait()
	return p.st, p.err
}

func mkdir(dst string, n *node) error {
	if err := os.Mkdir(dst, n.fi.Mode().Perm()|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// plantWorkers: a link is a system call that waits on its folder's lock
// and the journal, not on a core, so more goroutines than cores help.
const plantWorkers = 8

// workers is what planting and refreshing share: the transfer and the
// run's stamp, up to plantWorkers goroutines, and the stats and the first
// error they gather.
type workers struct {
	t     transfer
	stamp time.Time
	wg    sync.WaitGroup
	sem   chan struct{}
	mu    sync.Mutex
	st    Stats
	err   error
}

func newWorkers(t transfer, stamp time.Time) workers {
	return workers{t: t, stamp: stamp, sem: make(chan struct{}, plantWorkers)}
}

func (w *workers) note(s Stats) {
	w.mu.Lock()
	w.st.add(s)
	w.mu.Unlock()
}

func (w *workers) fail(err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

type planter struct{ workers }

// put makes one listed entry at dst, counting in st.
func (p *planter) put(src, dst, rel string, n *node, st *Stats) error {
	switch mode := n.fi.Mode(); {
	case mode.IsDir():
		return p.dir(src, dst, rel, n)
	case mode&fs.ModeSymlink != 0:
		st.Files++
		st.Put++
		return os.Symlink(n.target, dst)
	case mode.IsRegular():
		st.Files++
		st.Bytes += n.fi.Size()
		st.Put++
		if err := p.t.put(src, dst, rel, n.fi); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
	}
	return nil // sockets, fifos, devices: nothing to copy
}

// dir fills the folder dst, which exists: its files and links, its
// folders made, then its time stamped (nothing more is made in it: its
// folders are filled after, here or by other goroutines).
func (p *planter) dir(src, dst, rel string, n *node) error {
	var st Stats
	defer func() { p.note(st) }()
	for _, k := range n.kids {
		if k.fi == nil {
			continue
		}
		if k.fi.IsDir() {
			if err := mkdir(filepath.Join(dst, k.name), k); err != nil {
				return err
			}
			continue
		}
		if err := p.put(filepath.Join(src, k.name), filepath.Join(dst, k.name), rel+"/"+k.name, k, &st); err != nil {
			return err
		}
	}
	if err := os.Chtimes(dst, p.stamp, p.stamp); err != nil {
		return err
	}
	for _, k := range n.kids {
		if k.fi == nil || !k.fi.IsDir() {
			continue
		}
		s, d, r := filepath.Join(src, k.name), filepath.Join(dst, k.name), rel+"/"+k.name
		select {
		case p.sem <- struct{}{}:
			p.wg.Add(1)
			go func() {
				defer func() { <-p.sem; p.wg.Done() }()
				p.fail(p.dir(s, d, r, k))
			}()
		default:
			if err := p.dir(s, d, r, k); err != nil {
				return err
			}
		}
	}
	return nil
}
