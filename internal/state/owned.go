package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrNotOwned is wrapped by CheckOwned when .autobuild, or a part of it
// autobuild writes into or deletes from, is not a plain directory of this
// user: a symbolic link (committed by an agent, or in a cloned repository)
// would make autobuild write its state into, and empty, whatever the link
// points at.
var ErrNotOwned = errors.New("not a directory autobuild created")

// ownedDirs are the directories under .autobuild/ that autobuild writes
// into and deletes from.
var ownedDirs = []string{"phases", "logs", "worktrees", "prompts", "patches"}

// ownedFiles are the files under .autobuild/ that autobuild writes.
var ownedFiles = []string{"run.json", "lock", "commits.sh"}

// CheckOwned refuses a state directory that autobuild must not write into:
// .autobuild or one of its directories that is a symbolic link, not a
// directory, or owned by another user, and state files that are symbolic
// links. A directory that does not exist yet is fine: Init creates it.
func (s *Store) CheckOwned() error {
	if err := checkDir(s.Dir()); err != nil || !exists(s.Dir()) {
		return err
	}
	for _, d := range ownedDirs {
		if err := checkDir(filepath.Join(s.Dir(), d)); err != nil {
			return err
		}
		if d != "worktrees" { // a worktree's own files are the agent's
			if err := checkNoLinks(filepath.Join(s.Dir(), d)); err != nil {
				return err
			}
		}
	}
	for _, f := range ownedFiles {
		p := filepath.Join(s.Dir(), f)
		if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is %s, %w: remove it (autobuild will not write through it) and run again",
				displayPath(p), describeMode(fi), ErrNotOwned)
		}
	}
	return nil
}

// checkDir refuses path when it exists and is anything but a directory of
// the current user.
func checkDir(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking %s: %w", displayPath(path), err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is %s, %w: autobuild keeps its state there and would write into (and delete from) it; "+
			"remove it (rm %s, which removes only the link) and run again", displayPath(path), describeMode(fi), ErrNotOwned, displayPath(path))
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d), %w: run autobuild as that user, or remove the directory", displayPath(path), st.Uid, ErrNotOwned)
	}
	return nil
}

// checkNoLinks refuses a symbolic link directly in dir: autobuild writes
// (and truncates) its logs and state files there, and would write through
// the link.
func checkNoLinks(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // missing: Init creates it; unreadable: the write says so
	}
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 {
			p := filepath.Join(dir, e.Name())
			return fmt.Errorf("%s is a symbolic link, %w: autobuild would write through it; remove it and run again", displayPath(p), ErrNotOwned)
		}
	}
	return nil
}

func describeMode(fi fs.FileInfo) string {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link"
	case fi.Mode().IsRegular():
		return "a file"
	case fi.IsDir():
		return "a directory"
	}
	return "not a regular file"
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
