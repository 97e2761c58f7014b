package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// SavePhase writes the phase's file atomically.
func (s *Store) SavePhase(p *Phase) error {
	if p == nil || p.PhaseID == "" {
		return errors.New("saving a phase file: phase has no phase_id")
	}
	if err := os.MkdirAll(s.PhasesDir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.PhasesDir(), err)
	}
	return writeJSON(s.PhasePath(p.PhaseID), p)
}

// SavePhases writes the files of several phases, each atomically as
// SavePhase does, several at once and with one sync of the directory: a
// halt that blocks thousands of phases writes them in about the time of a
// few hundred.
func (s *Store) SavePhases(ps []*Phase) error {
	files := make([]jsonFile, 0, len(ps))
	at := make(map[phaseid.ID]int, len(ps)) // A phase given twice is written once, as given last.
	for _, p := range ps {
		if p == nil || p.PhaseID == "" {
			return errors.New("saving phase files: a phase has no phase_id")
		}
		if i, dup := at[p.PhaseID]; dup {
			files[i].v = p
			continue
		}
		at[p.PhaseID] = len(files)
		files = append(files, jsonFile{path: s.PhasePath(p.PhaseID), v: p})
	}
	if len(files) == 0 {
		return nil
	}
	if err := os.MkdirAll(s.PhasesDir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.PhasesDir(), err)
	}
	return writeJSONs(s.PhasesDir(), files)
}

// LoadPhase reads the file of phase id, or its entry in initial.json when
// it has no file yet. A phase in neither gives an error wrapping ErrNoPhase
// (the phase is pending); a file that does not parse gives a *CorruptError.
func (s *Store) LoadPhase(id phaseid.ID) (*Phase, error) {
	path := s.PhasePath(id)
	p, err := readPhase(path)
	if !errors.Is(err, os.ErrNotExist) {
		return p, err
	}
	initial, err := s.loadInitial()
	if err != nil {
		return nil, err
	}
	if p := initial[id]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("phase %s: %w", id, ErrNoPhase)
}

// LoadPhases reads every phases/phase-*.json, keyed by the phase_id inside
// the file, over the entries of initial.json: a phase that has not changed
// since the run began has no file of its own. Temporary files are skipped,
// and so is a file that vanishes between listing and reading (a concurrent
// RemovePhase). A corrupt file gives a *CorruptError. A missing phases
// directory gives an empty map.
func (s *Store) LoadPhases() (map[phaseid.ID]*Phase, error) {
	out, err := s.loadInitial()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(s.PhasesDir())
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", displayPath(s.PhasesDir()), err)
	}
	fromFile := map[phaseid.ID]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || isTemp(name) || !strings.HasPrefix(name, "phase-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		path := filepath.Join(s.PhasesDir(), name)
		p, err := readPhase(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		// Two files may claim one phase after a hand edit (a copy of a
		// file): the one at the phase's own path wins.
		if fromFile[p.PhaseID] && path != s.PhasePath(p.PhaseID) {
			continue
		}
		out[p.PhaseID] = p
		fromFile[p.PhaseID] = true
	}
	return out, nil
}

// RemovePhase deletes the file of phase id; a missing file is not an error.
func (s *Store) RemovePhase(id phaseid.ID) error {
	if err := os.Remove(s.PhasePath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the file of phase %s: %w", id, err)
	}
	return nil
}

// readPhase reads and parses one phase file. Errors other than a missing
// file are reported as *CorruptError when the content is at fault.
func readPhase(path string) (*Phase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading %s: %w", displayPath(path), err)
	}
	var p Phase
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	if p.PhaseID == "" {
		return nil, &CorruptError{Path: path, Err: errors.New("no phase_id")}
	}
	if err := p.check(); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	return &p, nil
}
