package state

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrNoRun is returned by LoadRun (and Snapshot) when there is no run.json.
var ErrNoRun = errors.New("no autobuild run here (no .autobuild/run.json)")

// ErrNoPhase is wrapped by LoadPhase when the phase has no file; callers
// treat the phase as pending (deleting a phase file is documented recovery).
var ErrNoPhase = errors.New("no phase file")

// ErrNewerSchema is wrapped in a CorruptError when run.json was written by a
// newer autobuild than this one.
var ErrNewerSchema = errors.New("newer schema_version")

// CorruptError is a state file that cannot be read. It is never silently
// replaced (docs/state.md): the message names the file and the way out.
type CorruptError struct {
	// Path is the file's full path.
	Path string
	// Err is why it could not be read (a JSON error, ErrNewerSchema, ...).
	Err error
}

// Error names the file relative to the repository root, e.g.
// ".autobuild/run.json is corrupt (unexpected end of JSON input): fix or
// delete it, or start over with --fresh".
func (e *CorruptError) Error() string {
	name := displayPath(e.Path)
	if errors.Is(e.Err, ErrNewerSchema) {
		return fmt.Sprintf("%s was written by a newer autobuild (%v): upgrade autobuild, or start over with --fresh", name, e.Err)
	}
	return fmt.Sprintf("%s is corrupt (%v): fix or delete it, or start over with --fresh", name, e.Err)
}

// Unwrap returns the underlying error.
func (e *CorruptError) Unwrap() error { return e.Err }

// displayPath shortens a state file's path to start at .autobuild/, which is
// how users know it; other paths are returned as they are.
func displayPath(path string) string {
	p := filepath.ToSlash(path)
	if i := strings.LastIndex(p, "/"+DirName+"/"); i >= 0 {
		return p[i+1:]
	}
	return p
}
