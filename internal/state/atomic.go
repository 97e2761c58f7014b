package state

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// tempMarker is part of every temporary file name, so readers that list a
// directory (LoadPhases) can recognize and skip half-written files.
const tempMarker = ".tmp-"

// writeJSON writes v to path atomically as indented JSON with a trailing
// newline.
func writeJSON(path string, v any) error { return putJSON(writeAtomic, path, v) }

// putJSON encodes v and hands it to put (writeAtomic, or replace when the
// caller syncs the directory itself).
func putJSON(put func(string, func(io.Writer) error) error, path string, v any) error {
	data, err := encodeJSON(filepath.Base(path), v)
	if err != nil {
		return err
	}
	return put(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// encodeJSON is v as indented JSON with a trailing newline.
func encodeJSON(name string, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	// State files are read by people too: keep <, > and & readable.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// writeAtomic replaces path with what write produces, so that a crash at any
// instant leaves either the old file or the new one, never a torn one: the
// data goes to a temporary file in the same directory, which is synced,
// closed and renamed over path; then the directory is synced so the rename
// itself survives a power loss. On any error the temporary file is removed
// and path is untouched.
//
// This is the ~30 lines renameio would give us, owned because renameio does
// not sync the directory after the rename.
func writeAtomic(path string, write func(io.Writer) error) error {
	if err := replace(path, write); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// parallelWrites is how many files writeJSONs writes at once. The time of a
// file is its fsyncs, which a file system's journal can overlap: on the
// bench VM 1,000 files took 2.3 s one after another and 0.9–1.7 s 16 at a
// time (10,000: 13 s and 1 s, 32 at a time); the gain depends on the disk.
const parallelWrites = 16

// jsonFile is one file for writeJSONs: its path and its content.
type jsonFile struct {
	path string
	v    any
}

// writeJSONs writes files, all in dir, as writeJSON writes each (temporary
// file, fsync, rename), several at once, then syncs dir once for all the
// renames. Each file is replaced atomically; they are not replaced together.
// The first error is returned, after every file was tried.
func writeJSONs(dir string, files []jsonFile) error {
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(parallelWrites, len(files)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = putJSON(replace, files[i].path, files[i].v)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return syncDir(dir)
}

// replace is writeAtomic without the sync of the directory: the new
// content is on disk before it replaces the old, but the rename is only
// durable once the caller syncs the directory (writeJSONs does, once for
// many files).
func replace(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createTemp(dir, "."+base+tempMarker)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// createTemp creates a new file in dir named prefix and a random suffix,
// with mode 0o644 less the umask: state files are ordinary project files,
// private ones under umask 077 (os.CreateTemp's fixed 0o600, widened by a
// chmod, would ignore the umask).
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		var b [6]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		f, err := os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(b[:])), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("creating a temporary file in %s: too many name collisions", dir)
}

// syncDir fsyncs a directory so a rename in it is durable. File systems that
// cannot sync directories (EINVAL, ENOTSUP) are tolerated: the rename has
// happened, only its durability is best effort there.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// isTemp reports whether a directory entry is a temporary file of writeAtomic.
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker)
}
