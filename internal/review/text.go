package review

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Facts are the review's lines above the diff: the gates, what the agent
// said, what it spent. The TUI and the plain text show the same; now says
// how long the phase has waited.
func (r *Review) Facts(now time.Time) []string {
	ps := r.Phase
	var out []string
	agent := ""
	if ps.Agent != "" {
		agent = ", agent " + ps.Agent
	}
	out = append(out, fmt.Sprintf("Attempt %d/%d%s, awaiting review for %s", max(r.Hold.Attempt, ps.Attempt), max(ps.MaxAttempts, 1),
		agent, max(0, now.Sub(r.Hold.Since)).Round(time.Second)))
	out = append(out, "Gates: "+Gates(ps.QualityGates))
	if msg := strings.TrimSpace(r.Hold.Message); msg != "" {
		first, _, _ := strings.Cut(msg, "\n")
		out = append(out, "Agent's summary: "+first)
	} else if ps.Verification.AgentClaimed != "" {
		out = append(out, "Agent's summary: claimed "+ps.Verification.AgentClaimed)
	}
	if n := len(ps.Attempts); n > 0 && ps.Attempts[n-1].Usage != nil {
		out = append(out, "Usage: "+ps.Attempts[n-1].Usage.Summary())
	}
	var added, removed int
	for _, f := range r.Files {
		added, removed = added+f.Added, removed+f.Removed
	}
	out = append(out, fmt.Sprintf("Change: %d %s, +%d -%d", len(r.Files), human.Plural(len(r.Files), "file", "files"), added, removed))
	return out
}

// Gates is the gates' results in one line: "test passed (go test ./...),
// lint passed (…)"; "none ran" without any.
func Gates(gates map[string]state.GateResult) string {
	if len(gates) == 0 {
		return "none ran"
	}
	kinds := make([]string, 0, len(gates))
	for k := range gates {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		g := gates[k]
		parts[i] = fmt.Sprintf("%s %s (%s)", k, strings.ReplaceAll(g.Status, "_", " "), g.Command)
	}
	return strings.Join(parts, ", ")
}

// StatusLetter is a file's status as git's one letter.
func (f File) StatusLetter() string {
	switch f.Status {
	case "added":
		return "A"
	case "deleted":
		return "D"
	case "renamed":
		return "R"
	}
	return "M"
}

// WriteText writes the review as plain text: the facts, the files, then
// every hunk, then the agent's last lines and how to decide.
func (r *Review) WriteText(w io.Writer, now time.Time) {
	ps := r.Phase
	fmt.Fprintf(w, "Phase %s: %s\n", ps.DisplayID.Or(ps.PhaseID), ps.PhaseName)
	for _, l := range r.Facts(now) {
		fmt.Fprintln(w, "  "+l)
	}
	fmt.Fprintln(w, "\nFiles:")
	for _, f := range r.Files {
		fmt.Fprintf(w, "  %s %s  +%d -%d\n", f.StatusLetter(), f.Path, f.Added, f.Removed)
	}
	for _, f := range r.Files {
		fmt.Fprintf(w, "\n=== %s (%s)\n", f.Path, f.Status)
		if f.Binary {
			fmt.Fprintln(w, "  (binary)")
		}
		for _, h := range f.Hunks {
			fmt.Fprintln(w, h.Header)
			for _, l := range h.Lines {
				fmt.Fprintln(w, l)
			}
		}
	}
	if len(r.LogTail) > 0 {
		fmt.Fprintln(w, "\nThe attempt's last lines:")
		for _, l := range r.LogTail {
			fmt.Fprintln(w, "  "+l)
		}
	}
	id := string(ps.DisplayID.Or(ps.PhaseID))
	fmt.Fprintf(w, "\nDecide: autobuild review %s --approve, or autobuild review %s --reject --note TEXT\n", id, id)
}
