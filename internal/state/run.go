package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// LoadRun reads run.json. It returns (nil, ErrNoRun) when the file is
// absent, and a *CorruptError when it does not parse or was written with a
// schema_version newer than SchemaVersion.
func (s *Store) LoadRun() (*Run, error) {
	path := s.RunPath()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoRun
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", displayPath(path), err)
	}
	var r Run
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	if r.SchemaVersion > SchemaVersion {
		return nil, &CorruptError{Path: path, Err: fmt.Errorf("%w: schema_version %d, this autobuild reads up to %d",
			ErrNewerSchema, r.SchemaVersion, SchemaVersion)}
	}
	return &r, nil
}

// SaveRun writes run.json atomically. A zero SchemaVersion is set to
// SchemaVersion, so callers need not remember it.
func (s *Store) SaveRun(r *Run) error {
	if r == nil {
		return errors.New("saving run.json: nil run")
	}
	if r.SchemaVersion == 0 {
		r.SchemaVersion = SchemaVersion
	}
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.Dir(), err)
	}
	return writeJSON(s.RunPath(), r)
}
