package state

import (
	"errors"
	"sort"
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// Snapshot is everything on disk about a run at one moment, for `status`
// and `watch`.
type Snapshot struct {
	Run *Run `json:"run"`
	// Phases are sorted by batch, then by phase id in natural order (2a
	// before 2b before 10).
	Phases []*Phase `json:"phases"`
}

// snapshotRetryDelay is how long Snapshot waits before its one retry.
const snapshotRetryDelay = 20 * time.Millisecond

// Snapshot reads run.json and every phase file. Files are replaced by atomic
// renames and removed by --fresh while another process reads them, so a
// failed read is retried once before the error is returned. No run.json
// gives ErrNoRun.
func (s *Store) Snapshot() (*Snapshot, error) {
	snap, err := s.snapshot()
	if err != nil && !errors.Is(err, ErrNoRun) {
		time.Sleep(snapshotRetryDelay)
		snap, err = s.snapshot()
	}
	return snap, err
}

func (s *Store) snapshot() (*Snapshot, error) {
	run, err := s.LoadRun()
	if err != nil {
		return nil, err
	}
	byID, err := s.LoadPhases()
	if err != nil {
		return nil, err
	}
	phases := make([]*Phase, 0, len(byID))
	for _, p := range byID {
		phases = append(phases, p)
	}
	SortPhases(phases)
	return &Snapshot{Run: run, Phases: phases}, nil
}

// SortPhases sorts phases by batch, then by phase id in natural order.
func SortPhases(phases []*Phase) {
	sort.SliceStable(phases, func(i, j int) bool {
		if phases[i].Batch != phases[j].Batch {
			return phases[i].Batch < phases[j].Batch
		}
		return NaturalLess(phases[i].PhaseID, phases[j].PhaseID)
	})
}

// NaturalLess compares two ids with runs of digits compared as numbers:
// "2" < "2a" < "2b" < "10".
func NaturalLess(a, b phaseid.ID) bool { return naturalLess(string(a), string(b)) }

func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := trimZeros(a[:da]), trimZeros(b[:db])
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
