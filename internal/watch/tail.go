package watch

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Bounds that keep a watcher's memory flat however much a phase prints: the
// viewer only keeps a tail of each log, so older bytes are skipped.
const (
	// maxReadPerPoll is the most read from one log file per Update; when a
	// file grew by more, only its last maxReadPerPoll bytes are read.
	maxReadPerPoll = 1 << 20
	// maxPartial bounds an unterminated line kept until its newline arrives.
	maxPartial = 64 << 10
)

// tailer remembers how far each attempt log has been read.
type tailer struct {
	dir   string
	files map[string]*tailFile // by file name
}

type tailFile struct {
	name    string       // the file's name in the logs directory
	phase   state.FileID // the phase's file id, read from the name
	attempt int
	info    os.FileInfo // of the file as last read, to notice a replacement
	offset  int64
	partial []byte // an unterminated last line
}

func newTailer(dir string) *tailer {
	return &tailer{dir: dir, files: map[string]*tailFile{}}
}

// poll returns the complete lines appended to every attempt log since the
// previous poll, per phase id, attempts in order. A file that shrank or was
// replaced is read again from its start; a file that vanished is forgotten.
func (t *tailer) poll() map[state.FileID][]string {
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		clear(t.files)
		return nil
	}
	seen := map[string]bool{}
	var order []*tailFile
	for _, e := range entries {
		fileID, n, ext, ok := state.ParseAttemptFileName(e.Name())
		if !ok || ext != "log" || e.IsDir() {
			continue
		}
		seen[e.Name()] = true
		f := t.files[e.Name()]
		if f == nil {
			f = &tailFile{name: e.Name(), phase: fileID, attempt: n}
			t.files[e.Name()] = f
		}
		order = append(order, f)
	}
	for name := range t.files {
		if !seen[name] {
			delete(t.files, name)
		}
	}
	slices.SortFunc(order, func(a, b *tailFile) int {
		return cmp.Or(cmp.Compare(a.phase, b.phase), cmp.Compare(a.attempt, b.attempt))
	})
	out := map[state.FileID][]string{}
	for _, f := range order {
		lines, err := f.read(filepath.Join(t.dir, f.name))
		if errors.Is(err, fs.ErrNotExist) {
			delete(t.files, f.name)
			continue
		}
		if len(lines) > 0 {
			out[f.phase] = append(out[f.phase], lines...)
		}
	}
	return out
}

// read returns the new complete lines of the file at path.
func (f *tailFile) read(path string) ([]string, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if f.info != nil && (!os.SameFile(f.info, info) || info.Size() < f.offset) {
		// Replaced (atomic rename) or truncated: start over.
		f.offset, f.partial = 0, nil
	}
	f.info = info
	size := info.Size()
	if size == f.offset {
		return nil, nil
	}
	start, skipFirst := f.offset, false
	if size-start > maxReadPerPoll {
		// Too much to show anyway: jump to the tail and drop the line cut
		// in half by the jump.
		start, skipFirst, f.partial = size-maxReadPerPoll, true, nil
	}
	buf := make([]byte, size-start)
	n, err := file.ReadAt(buf, start)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	buf = buf[:n]
	f.offset = start + int64(n)
	if skipFirst {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, nil
		}
		buf = buf[i+1:]
	}
	return f.split(buf), nil
}

// split turns buf, preceded by any partial line kept from before, into
// complete lines, keeping a new unterminated tail for next time.
func (f *tailFile) split(buf []byte) []string {
	var lines []string
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			f.partial = append(f.partial, buf...)
			if len(f.partial) > maxPartial {
				// A line this long is shown cut rather than held forever.
				lines = append(lines, string(f.partial))
				f.partial = nil
			}
			break
		}
		line := buf[:i]
		if len(f.partial) > 0 {
			line = append(f.partial, line...)
			f.partial = nil
		}
		lines = append(lines, string(bytes.TrimSuffix(line, []byte("\r"))))
		buf = buf[i+1:]
	}
	return lines
}
