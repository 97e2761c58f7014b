package remote

import (
	"sync"

	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// progressBook is what a running attempt has done so far, for its
// heartbeats; safe for the runner's goroutines.
type progressBook struct {
	mu sync.Mutex
	p  Progress
	// setUp is set once the attempt's [worktree] setup started.
	setUp bool
}

// SetUp notes that the attempt's [worktree] setup started.
func (b *progressBook) SetUp() {
	b.mu.Lock()
	b.p.Step, b.setUp = "setup", true
	b.mu.Unlock()
}

// setUpRan says whether the attempt's [worktree] setup started.
func (b *progressBook) setUpRan() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.setUp
}

// maxProgressLine caps the last output line a heartbeat carries.
const maxProgressLine = 200

func (b *progressBook) step(s string) {
	b.mu.Lock()
	b.p.Step = s
	b.mu.Unlock()
}

// Output notes a line of the agent's or a gate's output.
func (b *progressBook) Output(line string) {
	line = cutRunes(sanitize.Line(line), maxProgressLine)
	if line == "" {
		return
	}
	b.mu.Lock()
	b.p.LastLine = line
	b.mu.Unlock()
}

// Action notes a tool call.
func (b *progressBook) Action() {
	b.mu.Lock()
	b.p.ToolCalls++
	b.mu.Unlock()
}

func (b *progressBook) snapshot() Progress {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.p
}

// cutRunes cuts s to at most n runes.
func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
