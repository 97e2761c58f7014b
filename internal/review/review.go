// Package review is what a person sees of a phase awaiting review, and how
// their decision reaches the engine (docs/running.md "Reviewing before
// landing"). `autobuild review` and the TUI's review screen both read a
// phase's review here and write decisions here; the engine reads the
// decision files under .autobuild/review/.
package review

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Review is a phase awaiting review, as a person sees it.
type Review struct {
	Phase *state.Phase
	Hold  state.ReviewHold
	// Diff is the change as a patch, Files the same change parsed.
	Diff  string
	Files []File
	// LogTail is the end of the attempt's log: the agent's last lines
	// (its tool calls among them) and the gates'.
	LogTail []string
}

// Awaiting lists the phases of snap that await review, in plan order.
func Awaiting(phases []*state.Phase) []*state.Phase {
	var out []*state.Phase
	for _, p := range phases {
		if p.Status == state.PhaseAwaitingReview && p.Review != nil {
			out = append(out, p)
		}
	}
	return out
}

// logTailLines is how much of the attempt's log a review shows.
const logTailLines = 12

// Load reads the review of phase ps (awaiting review) in the repository at
// root: its kept diff (made again from the kept work when the file is
// gone) and the end of its attempt's log.
func Load(ctx context.Context, root string, ps *state.Phase) (*Review, error) {
	if ps.Review == nil {
		return nil, fmt.Errorf("phase %s does not await review (it is %s)", ps.DisplayID.Or(ps.PhaseID), ps.Status)
	}
	r := &Review{Phase: ps, Hold: *ps.Review}
	diff, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(r.Hold.DiffPath)))
	if r.Hold.DiffPath == "" || err != nil {
		out, gerr := exec.CommandContext(ctx, "git", "-C", root, "diff", "--no-color", "--no-ext-diff", r.Hold.Base, r.Hold.Ref, "--").Output()
		if gerr != nil {
			return nil, fmt.Errorf("reading the change of phase %s: %w", ps.DisplayID.Or(ps.PhaseID), errors.Join(err, gerr))
		}
		diff = out
	}
	r.Diff = sanitize.Text(string(diff))
	r.Files = ParseDiff(r.Diff)
	if n := len(ps.Attempts); n > 0 && ps.Attempts[n-1].LogPath != "" {
		r.LogTail = tail(filepath.Join(root, filepath.FromSlash(ps.Attempts[n-1].LogPath)), logTailLines)
	}
	return r, nil
}

// tail is the last n lines of the file at path, sanitized; none when it
// cannot be read.
func tail(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines = append(lines, sanitize.Line(line))
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return lines
}

// Decide writes a person's decision on phase ps, which awaits review. The
// decision names the hold it is about (its tree), so it never lands or
// rejects a later hold of the same phase. It is written atomically; the
// engine takes it within a fraction of a second, or when the run resumes.
func Decide(store *state.Store, ps *state.Phase, decision, note string, now time.Time) error {
	if ps.Review == nil {
		return fmt.Errorf("phase %s does not await review (it is %s)", ps.DisplayID.Or(ps.PhaseID), ps.Status)
	}
	if !slices.Contains([]string{state.DecisionApprove, state.DecisionReject, state.DecisionRecheck}, decision) {
		return fmt.Errorf("unknown decision %q", decision)
	}
	return store.SaveReviewDecision(state.ReviewDecision{PhaseID: ps.PhaseID, Decision: decision,
		Note: strings.TrimSpace(note), Tree: ps.Review.Tree, Decided: now.UTC()})
}

// Pending reports whether a decision on ps is written and not yet taken.
func Pending(store *state.Store, ps *state.Phase) bool {
	d, err := store.LoadReviewDecision(ps.PhaseID)
	return err == nil && d != nil && ps.Review != nil && (d.Tree == "" || d.Tree == ps.Review.Tree)
}

// Find is the phase named by arg (an id as written, or its display id)
// among phases; nil when none is.
func Find(phases []*state.Phase, arg string, normalize func(string) phaseid.ID) *state.Phase {
	id := normalize(arg)
	for _, p := range phases {
		if p.PhaseID == id || string(p.DisplayID) == arg {
			return p
		}
	}
	return nil
}
