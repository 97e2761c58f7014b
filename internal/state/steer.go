package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// Steer is a person's note to a running phase (the UI's M, or autobuild
// steer): the running attempt is stopped gracefully and continued with the
// note, without using up the retry. Written to .autobuild/steer/<id>.json,
// taken (and removed) by the run.
type Steer struct {
	PhaseID phaseid.ID `json:"phase_id"`
	Note    string     `json:"note"`
	Sent    time.Time  `json:"sent"`
}

// SteerDir is where notes to running phases wait for the run.
func (s *Store) SteerDir() string { return filepath.Join(s.Dir(), "steer") }

// SteerPath is the note file of phase id.
func (s *Store) SteerPath(id phaseid.ID) string {
	return filepath.Join(s.SteerDir(), string(FileIDOf(id))+".json")
}

// SaveSteer writes a note to a running phase atomically.
func (s *Store) SaveSteer(n Steer) error {
	if err := os.MkdirAll(s.SteerDir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.SteerDir(), err)
	}
	return writeJSON(s.SteerPath(n.PhaseID), n)
}

// TakeSteer reads and removes the note to phase id; nil when there is none.
func (s *Store) TakeSteer(id phaseid.ID) (*Steer, error) {
	path := s.SteerPath(id)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the note to phase %s: %w", id, err)
	}
	var n Steer
	if err := json.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("taking the note to phase %s: %w", id, err)
	}
	return &n, nil
}
