// Package watch follows a run from its state directory alone (the README,
// `autobuild watch`): it watches the .autobuild/ directories with fsnotify,
// and on every burst of changes re-reads the state snapshot and the log lines
// appended since the last look. It works for a run started anywhere: another
// terminal, --no-tui, CI.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// DefaultDebounce is a good debounce for a human watching: bursts of writes
// within it become one Update.
const DefaultDebounce = 50 * time.Millisecond

// Update is what changed in the state directory since the previous Update.
type Update struct {
	// Snapshot is the whole state as read now; nil when .autobuild/ does not
	// exist (yet) or has no run in it.
	Snapshot *state.Snapshot
	// Lines holds the log lines each phase (by normalized id) appended since
	// the previous Update, oldest first.
	Lines map[phaseid.ID][]string
	// Err is a problem reading the state (a corrupt file, say); the watch
	// goes on and a later Update may clear it.
	Err error
}

// Watch starts watching the run in root (the repository root, where
// .autobuild/ lives or will appear). The first Update is sent at once; later
// ones at most once per debounce, after something changed. The channel is
// closed when ctx ends. Watch fails only when root itself cannot be watched.
func Watch(ctx context.Context, root string, debounce time.Duration) (<-chan Update, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	if err := fw.Add(root); err != nil {
		_ = fw.Close()
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	w := &watcher{
		fw:       fw,
		root:     root,
		stateDir: filepath.Join(root, ".autobuild"),
		logs:     newTailer(filepath.Join(root, ".autobuild", "logs")),
		snapshot: func() (*state.Snapshot, error) { return state.Open(root).Snapshot() },
	}
	out := make(chan Update)
	go w.run(ctx, debounce, out)
	return out, nil
}

// watcher is owned by the goroutine running run; nothing else touches it.
type watcher struct {
	fw       *fsnotify.Watcher
	root     string
	stateDir string
	logs     *tailer
	snapshot func() (*state.Snapshot, error)
}

func (w *watcher) run(ctx context.Context, debounce time.Duration, out chan<- Update) {
	defer close(out)
	defer w.fw.Close()

	send := func() bool {
		select {
		case out <- w.collect():
			return true
		case <-ctx.Done():
			return false
		}
	}
	if !send() {
		return
	}
	// The timer is armed by the first event of a burst and not pushed back by
	// the next ones, so a phase printing without pause still gets an Update
	// every debounce instead of never.
	var timer *time.Timer
	var fire <-chan time.Time
	arm := func() {
		if fire != nil {
			return
		}
		if timer == nil {
			timer = time.NewTimer(debounce)
		} else {
			timer.Reset(debounce)
		}
		fire = timer.C
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if w.relevant(ev) {
				arm()
			}
		case _, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// An overflow means events were lost; a full re-read, which
			// every Update is anyway, recovers from it.
			arm()
		case <-fire:
			fire = nil
			if !send() {
				return
			}
		}
	}
}

// relevant filters out changes in the repository root other than to
// .autobuild/ itself (the user editing files must not wake the watcher).
func (w *watcher) relevant(ev fsnotify.Event) bool {
	if filepath.Dir(ev.Name) == filepath.Clean(w.root) {
		return filepath.Base(ev.Name) == ".autobuild"
	}
	return true
}

// collect reads everything an Update carries. It first makes sure every
// state directory that exists is watched, so a directory created after the
// watch started (or re-created by --fresh) is followed from then on; reading
// after adding the watch means nothing written in between is missed.
func (w *watcher) collect() Update {
	w.ensureDirs()
	var u Update
	lines := w.logs.poll()
	if isDir(w.stateDir) {
		snap, err := w.snapshot()
		switch {
		case errors.Is(err, state.ErrNoRun), errors.Is(err, fs.ErrNotExist):
			// The directory exists but the run has not written run.json yet.
		case err != nil:
			u.Err = err
		default:
			u.Snapshot = snap
		}
	}
	if len(lines) > 0 {
		u.Lines = byPhaseID(lines, u.Snapshot)
	}
	return u
}

// byPhaseID keys lines by phase id instead of the file ids the log file
// names hold: the snapshot's phases are matched through their FileIDOf. A
// file id no phase of the snapshot has (or with no snapshot yet) is taken
// for the phase id itself, which it is for every ordinary id.
func byPhaseID(lines map[state.FileID][]string, snap *state.Snapshot) map[phaseid.ID][]string {
	out := make(map[phaseid.ID][]string, len(lines))
	if snap != nil {
		for _, p := range snap.Phases {
			fid := state.FileIDOf(p.PhaseID)
			if l, ok := lines[fid]; ok {
				out[p.PhaseID] = append(out[p.PhaseID], l...)
				delete(lines, fid)
			}
		}
	}
	for fid, l := range lines {
		id := phaseid.ID(fid) // An ordinary id is its own file id.
		out[id] = append(out[id], l...)
	}
	return out
}

func (w *watcher) ensureDirs() {
	watched := w.fw.WatchList()
	for _, dir := range []string{w.stateDir, filepath.Join(w.stateDir, "phases"), filepath.Join(w.stateDir, "logs")} {
		if slices.Contains(watched, dir) || !isDir(dir) {
			continue
		}
		// A directory that vanished between the check and Add is simply
		// picked up again when it reappears.
		_ = w.fw.Add(dir)
	}
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
