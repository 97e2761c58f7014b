package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// InitialPath returns phases/initial.json: every phase's state as the run
// began, in one file. A phase has a file of its own from its first change
// on, and that file wins over its entry here.
func (s *Store) InitialPath() string { return filepath.Join(s.PhasesDir(), "initial.json") }

// SaveInitial writes the states the plan's phases start a run with, in plan
// order, atomically in one file: a run of 10,000 phases starts after one
// write and one fsync instead of 10,000 of each. Nothing in them is work
// done, and a phase missing from every file counts as pending anyway.
func (s *Store) SaveInitial(phases []*Phase) error {
	for _, p := range phases {
		if p == nil || p.PhaseID == "" {
			return errors.New("saving the phases' initial states: a phase has no phase_id")
		}
	}
	if err := os.MkdirAll(s.PhasesDir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.PhasesDir(), err)
	}
	return writeJSON(s.InitialPath(), phases)
}

// loadInitial reads initial.json, keyed by phase_id; a missing file (a run
// started by an older autobuild, or none yet) gives an empty map.
func (s *Store) loadInitial() (map[phaseid.ID]*Phase, error) {
	out := map[phaseid.ID]*Phase{}
	path := s.InitialPath()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", displayPath(path), err)
	}
	var list []*Phase
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	for _, p := range list {
		if p == nil || p.PhaseID == "" {
			return nil, &CorruptError{Path: path, Err: errors.New("a phase has no phase_id")}
		}
		if err := p.check(); err != nil {
			return nil, &CorruptError{Path: path, Err: err}
		}
		if _, dup := out[p.PhaseID]; !dup {
			out[p.PhaseID] = p
		}
	}
	return out, nil
}
