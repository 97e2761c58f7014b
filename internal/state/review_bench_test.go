package state

import "testing"

// What a phase awaiting review pays four times a second while nobody has
// decided: one failed open of its decision file.
func BenchmarkReviewPollNoDecision(b *testing.B) {
	s := Open(b.TempDir())
	for b.Loop() {
		if d, err := s.LoadReviewDecision("2a"); d != nil || err != nil {
			b.Fatal(d, err)
		}
	}
}

// The same for a running phase's steer note.
func BenchmarkSteerPollNoNote(b *testing.B) {
	s := Open(b.TempDir())
	for b.Loop() {
		if n, err := s.TakeSteer("2a"); n != nil || err != nil {
			b.Fatal(n, err)
		}
	}
}
