package wtenv

import (
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// A folder brought into a worktree in hard-link mode is given its run's
// stamp as modification time once its entries are in (plant, stampAll).
// Making, removing or renaming anything in a folder sets its time to now,
// so a folder that still has the stamp holds what was put in it this run:
// its dependency files are still the hard links to autobuild's copy (an
// edit in place through a link changes the copy too, never the link;
// autobuild's copy does not change during a run), its links and folders
// still there. Only its copied files (those outside dependency folders,
// which an edit in place changes alone) are compared one by one. A
// reused worktree is so brought up to date with a stat per folder rather
// than two per file; a folder without the stamp is mirrored whole.

// runStamp is a modification time no write makes (a second in 2000-2019)
// and that differs from one run to the next: a folder stamped by an
// earlier run, whose autobuild's copy may have differed, is mirrored.
func runStamp(now time.Time) time.Time {
	return time.Unix(stampFrom+now.UnixMilli()%stampSpan, 0)
}

// The stamps' range: whole seconds from 2000 on, for about 20 years.
const (
	stampFrom = 946684800
	stampSpan = 20 * 365 * 24 * 3600
)

// isStamp reports whether t is a time runStamp gives.
func isStamp(t time.Time) bool {
	s := t.Unix()
	return t.Nanosecond() == 0 && s >= stampFrom && s < stampFrom+stampSpan
}

// refresh brings the entry dst, made from the listing n of autobuild's
// copy at src (this run's), up to date. own is set where every file in
// dst is the worktree's own (a snapshot), not a link to autobuild's copy:
// an edit in place changes it alone, so each is compared.
func refresh(src, dst, rel string, n *node, t transfer, stamp time.Time, own bool) (Stats, error) {
	r := &refresher{workers: newWorkers(t, stamp), own: own}
	r.fail(r.dir(src, dst, rel, n))
	r.wg.Wait()
	return r.st, r.err
}

type refresher struct {
	workers
	own bool
}

func (r *refresher) dir(src, dst, rel string, n *node) error {
	fi, err := os.Lstat(dst)
	if err != nil || !fi.IsDir() || !fi.ModTime().Equal(r.stamp) {
		st, err := mirror(src, dst, rel, r.t)
		r.note(st)
		if err == nil {
			stampAll(dst, n, r.stamp)
		}
		return err
	}
	var st Stats
	defer func() { r.note(st) }()
	touched := false
	for _, k := range n.kids {
		s, d, kr := filepath.Join(src, k.name), filepath.Join(dst, k.name), rel+"/"+k.name
		switch mode := modeOf(k); {
		case mode.IsDir():
			r.subdir(s, d, kr, k)
		case mode.IsRegular() && (r.own || !linkable(kr)):
			st.Files++
			st.Bytes += k.fi.Size()
			have, err := os.Lstat(d)
			if err == nil && r.t.same(k.fi, have, kr) {
				st.Kept++
				continue
			}
			if err := gitx.RemoveAll(d); err != nil {
				return err
			}
			if err := r.t.put(s, d, kr, k.fi); err != nil {
				return err
			}
			st.Put++
			touched = true
		case mode.IsRegular() || mode&os.ModeSymlink != 0:
			st.Files++
			st.Kept++
			if mode.IsRegular() {
				st.Bytes += k.fi.Size()
			}
		}
	}
	if touched {
		return os.Chtimes(dst, r.stamp, r.stamp)
	}
	return nil
}

func (r *refresher) subdir(src, dst, rel string, n *node) {
	select {
	case r.sem <- struct{}{}:
		r.wg.Add(1)
		go func() {
			defer func() { <-r.sem; r.wg.Done() }()
			r.fail(r.dir(src, dst, rel, n))
		}()
	default:
		r.fail(r.dir(src, dst, rel, n))
	}
}

// modeOf is the listed entry's type and mode; 0 for one not listed fully.
func modeOf(n *node) os.FileMode {
	if n.fi == nil {
		return 0
	}
	return n.fi.Mode()
}

// stampAll gives every listed folder under dst (mirrored from the copy)
// the stamp. A folder it misses is only mirrored again next time.
func stampAll(dst string, n *node, stamp time.Time) {
	if !modeOf(n).IsDir() {
		return
	}
	for _, k := range n.kids {
		stampAll(filepath.Join(dst, k.name), k, stamp)
	}
	_ = os.Chtimes(dst, stamp, stamp)
}
