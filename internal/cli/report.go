package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/metrics"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func newReport(s Streams) *cobra.Command {
	var (
		asJSON bool
		since  string
		plan   string
	)
	cmd := &cobra.Command{
		Use:   "report [DIR]",
		Short: "Failure metrics across the runs in DIR (default .): rates, retries, recovery, cost",
		Long: `Read .autobuild/history.jsonl, where every run appends each attempt's outcome
(--fresh keeps it), and say which phases and agents fail, of what, whether the
retry helps, how long recovery takes, how often a person is needed, and what it
cost. Alerts come first: a failure rate over 20% (warning) or 50% (critical),
one failure type more than 5 times (investigate), an hour of failures without a
completed attempt (emergency).`,
		Example: "  autobuild report\n  autobuild report --since 7d --plan docs/plan.md\n  autobuild report --json | jq .retry",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := repoRootOf(dirArg(args))
			if err != nil {
				return err
			}
			var f metrics.Filter
			now := time.Now()
			if since != "" {
				d, err := parseSince(since)
				if err != nil {
					return usageErr("--since %q: %v", since, err)
				}
				f.Since = now.Add(-d)
			}
			if plan != "" {
				f.Plans = planNames(plan, root)
			}
			recs, warnings, err := history.Read(state.Open(root).HistoryPath())
			if err != nil {
				return &exitcode.Error{Code: exitcode.Refused, Err: err}
			}
			rep := metrics.Compute(recs, f, now)
			rep.Warnings = append(rep.Warnings, warnings...)
			if plan != "" {
				rep.Plan = plan
			}
			if asJSON {
				enc := json.NewEncoder(sanitize.JSONWriter{W: s.Out})
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			look := metrics.Plain
			if isTerminal(s.Out) {
				look = metrics.Color
				if os.Getenv("NO_COLOR") != "" {
					look = metrics.Mono
				}
			}
			// The colours are written as true colour; the writer brings
			// them down to what the terminal supports.
			out := colorprofile.NewWriter(s.Out, os.Environ())
			fmt.Fprint(out, metrics.Render(rep, metrics.Options{Width: terminalWidth(s.Out), Look: look}))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object (schema_version 1, see the README)")
	cmd.Flags().StringVar(&since, "since", "", "only what happened in this last span: 90m, 36h, 7d, 2w")
	cmd.Flags().StringVar(&plan, "plan", "", "only the runs of this plan (its path as given to autobuild)")
	return cmd
}

// parseSince reads a span as Go's durations (90m, 36h) or in days and weeks
// (7d, 2w).
func parseSince(s string) (time.Duration, error) {
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[len(s)-1]]
	if unit != 0 {
		n, err := strconv.ParseFloat(s[:len(s)-1], 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("not a span: write it as 90m, 36h, 7d or 2w")
		}
		return time.Duration(n * float64(unit)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("not a span: write it as 90m, 36h, 7d or 2w")
	}
	return d, nil
}

// planNames are the spellings of --plan that the history may hold: as
// given, and relative to the repository root (runs record the plan path
// as it was given, usually from the root).
func planNames(plan, root string) []string {
	names := []string{plan}
	if abs, err := filepath.Abs(plan); err == nil {
		if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
			names = append(names, rel)
		}
		names = append(names, abs)
	}
	return names
}
