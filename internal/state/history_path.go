package state

import "path/filepath"

// HistoryName is the history file's name in the state directory: one JSON
// line per attempt and per run end, across runs. --fresh keeps it (and its
// rotated copy HistoryName+".1"), so `autobuild report` sees every run.
const HistoryName = "history.jsonl"

// HistoryPath returns the path of the history file.
func (s *Store) HistoryPath() string { return filepath.Join(s.Dir(), HistoryName) }

// keptByRemove reports whether Remove leaves the state directory's entry
// name alone: the lock (see Remove) and the history, which outlives runs.
func (s *Store) keptByRemove(name string) bool {
	return name == filepath.Base(s.LockPath()) || name == HistoryName || name == HistoryName+".1"
}
