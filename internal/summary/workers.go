package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// workerName is the phase's last attempt's worker (--executor temporal),
// as one line of plain text: a worker names itself on another machine, so
// its name may hold anything (a newline would start a row of its own). ""
// for a local attempt.
func workerName(p *state.Phase) string {
	return strings.TrimSpace(sanitize.Line(p.Worker()))
}

// onWorker is " on worker NAME" for a phase whose last attempt ran on a
// worker, "" for a local one: what the failed row adds to its failure.
func onWorker(p *state.Phase) string {
	if w := workerName(p); w != "" {
		return " on worker " + w
	}
	return ""
}

// workersLine says on which workers the run's phases ran (each phase's
// last attempt: the one that landed), busiest first, ties in plan order:
// "Workers: build-7 (4 phases), build-9 (2)". Phases made on this machine
// (a session run locally) are counted as "this machine". It is "" for a
// run none of whose phases ran on a worker, so a local run's box is as it
// always was.
func workersLine(phases []*state.Phase) string {
	type count struct {
		name string
		n    int
	}
	var counts []count
	local := 0
	for _, p := range phases {
		if p.Status == state.PhaseSkipped || len(p.Attempts) == 0 {
			continue
		}
		w := workerName(p)
		if w == "" {
			local++
			continue
		}
		i := slices.IndexFunc(counts, func(c count) bool { return c.name == w })
		if i < 0 {
			counts = append(counts, count{name: w})
			i = len(counts) - 1
		}
		counts[i].n++
	}
	if len(counts) == 0 {
		return ""
	}
	slices.SortStableFunc(counts, func(a, b count) int { return b.n - a.n })
	if local > 0 {
		counts = append(counts, count{name: "this machine", n: local})
	}
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = fmt.Sprintf("%s (%d)", c.name, c.n)
		if i == 0 {
			parts[i] = fmt.Sprintf("%s (%s)", c.name, human.Count(c.n, "phase", "phases"))
		}
	}
	return "Workers: " + strings.Join(parts, ", ") + "."
}
