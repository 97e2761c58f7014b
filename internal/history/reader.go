package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxLine bounds one record when reading; a longer line is skipped.
const maxLine = 1 << 20

// Read returns every record of the history at path, the rotated copy
// (path.1) first, in file order, with a warning for each line it skipped: a
// line torn by a kill, garbled, or of a newer schema. A missing file is an
// empty history, not an error; only a file that cannot be read is.
func Read(path string) ([]Record, []string, error) {
	var recs []Record
	var warnings []string
	for _, p := range []string{path + ".1", path} {
		r, w, err := readFile(p)
		if err != nil {
			return nil, nil, err
		}
		recs, warnings = append(recs, r...), append(warnings, w...)
	}
	return recs, warnings, nil
}

func readFile(path string) ([]Record, []string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading the history: %w", err)
	}
	defer f.Close()
	recs, warnings, err := Parse(f, filepath.Base(path))
	if err != nil {
		return nil, nil, fmt.Errorf("reading the history %s: %w", path, err)
	}
	return recs, warnings, nil
}

// Parse reads records from r, one JSON object a line; name is the file's
// name for the warnings. Bad lines are skipped with a warning, never an
// error: the history is a record for reports, and a line a kill cut short
// must not hide the rest.
func Parse(r io.Reader, name string) ([]Record, []string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var recs []Record
	var warnings []string
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, err
		}
		last := errors.Is(err, io.EOF) // no newline: the last append was cut short
		if w := decode(line, &recs); w != "" {
			if last {
				w = "a torn last line (the process writing it was killed)"
			}
			warnings = append(warnings, fmt.Sprintf("%s line %d skipped: %s", name, n, w))
		}
		if last {
			break
		}
	}
	return recs, warnings, nil
}

// readLine returns the next line without its newline; io.EOF with a
// non-empty line means the file ended without one.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine+1 {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return buf, err
		}
		return bytes.TrimSuffix(buf, []byte{'\n'}), nil
	}
}

// decode appends the line's record to recs, or says why it cannot.
func decode(line []byte, recs *[]Record) string {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return ""
	}
	if len(line) > maxLine {
		return "longer than 1 MiB"
	}
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return "not a JSON record (" + err.Error() + ")"
	}
	switch {
	case rec.V > Version:
		return fmt.Sprintf("written by a newer autobuild (record version %d)", rec.V)
	case rec.Kind != KindAttempt && rec.Kind != KindRunEnd:
		return fmt.Sprintf("unknown kind %q", rec.Kind)
	}
	*recs = append(*recs, rec)
	return ""
}
