package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// DefaultMaxBytes bounds the history file: an append that would take it past
// this size first renames it to history.jsonl.1 (replacing the older copy),
// so the history never takes more than twice this on disk. At a few hundred
// bytes a record that is some tens of thousands of attempts.
const DefaultMaxBytes = 8 << 20

// Writer appends records to one history file. It is safe for concurrent
// use; separate processes never write one file at once, since only the run
// holding the state directory's lock writes.
type Writer struct {
	path string
	// MaxBytes is the size past which the file rotates (DefaultMaxBytes when
	// 0). Set before the first Append.
	MaxBytes int64

	mu sync.Mutex // serializes appends and rotation
}

// NewWriter returns a Writer appending to path; nothing is opened until the
// first Append.
func NewWriter(path string) *Writer { return &Writer{path: path} }

// Path returns the history file's path.
func (w *Writer) Path() string { return w.path }

// Append writes rec as one line: one write(2) on a file opened with
// O_APPEND, then fsync, so a kill -9 leaves either the whole line or a torn
// tail that the next Append ends with a newline first and readers skip.
func (w *Writer) Append(rec Record) error {
	if rec.V == 0 {
		rec.V = Version
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encoding a history record: %w", err)
	}
	line = append(line, '\n')

	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.rotate(int64(len(line))); err != nil {
		return err
	}
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("opening the history %s: %w", w.path, err)
	}
	torn, err := endsTorn(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("reading the end of the history %s: %w", w.path, err)
	}
	if torn {
		// The last append was cut short: end that line, so this record
		// starts on its own and only the torn one is lost.
		line = append([]byte{'\n'}, line...)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("appending to the history %s: %w", w.path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing the history %s: %w", w.path, err)
	}
	return f.Close()
}

// endsTorn reports whether the file is non-empty and does not end with a
// newline. f is open for writing only, so the last byte is read through a
// second descriptor.
func endsTorn(f *os.File) (bool, error) {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false, err
	}
	r, err := os.Open(f.Name())
	if err != nil {
		return false, err
	}
	defer r.Close()
	var last [1]byte
	if _, err := r.ReadAt(last[:], fi.Size()-1); err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return last[0] != '\n', nil
}

// rotate renames the file to path.1 when adding n bytes would take it past
// MaxBytes; an empty or missing file never rotates.
func (w *Writer) rotate(n int64) error {
	limit := w.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	fi, err := os.Stat(w.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the history %s: %w", w.path, err)
	}
	if fi.Size() == 0 || fi.Size()+n <= limit {
		return nil
	}
	if err := os.Rename(w.path, w.path+".1"); err != nil {
		return fmt.Errorf("rotating the history %s: %w", w.path, err)
	}
	return nil
}
