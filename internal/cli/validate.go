package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

func newValidate(s Streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate PLAN.md",
		Short: "Parse and check a plan and print its batches; run nothing",
		Long: `Parse and check a plan: unknown dependencies, duplicate ids, cycles, metadata
that contradicts the table, Parallel With naming a dependent. Every problem is
printed as file:line: message and the exit status is 2; a valid plan prints its
phases and batches and exits 0. With --json, one JSON document on stdout (phases,
dependencies, batches, gates, warnings and errors with their lines; see
docs/plan-format.md), for editors and CI.`,
		Example: "  autobuild validate docs/plan.md\n  autobuild validate --json docs/plan.md | jq .batches",
		Args:    exactArgs(1, "validate takes one plan file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return printPlanJSON(s.Out, args[0], configGates(cmd.Context()), worktreeInfo(cmd.Context()))
			}
			pl, err := loadPlan(s, args[0])
			if err != nil {
				return err
			}
			printPlan(s.Out, pl, configGates(cmd.Context()))
			printWorktree(s.Out, worktreeInfo(cmd.Context()))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as one JSON document (for editors and CI)")
	return cmd
}

// configGates are the gates autobuild.toml sets in the repository around
// the current directory, as a run started here would read them; none when
// there is no file or it cannot be read (a run says why).
func configGates(ctx context.Context) []plan.Gate {
	root, _ := os.Getwd()
	if repo, err := gitx.Open(ctx, "."); err == nil {
		root = repo.Root()
	}
	fc, err := config.Load(root)
	if err != nil {
		return nil
	}
	return fc.Gates
}

// printPlan prints the phases batch by batch: what validate and --dry-run
// show. fromConfig are autobuild.toml's gates.
func printPlan(out io.Writer, pl *plan.Plan, fromConfig []plan.Gate) {
	// The title, the names and the path are the plan's (or its file's):
	// no escape sequence of theirs reaches the terminal.
	w := sanitize.Writer{W: out}
	batches := pl.Batches()
	if pl.Title == filepath.Base(pl.Path) {
		// A plan without an H1 is titled by its file name: say it once.
		fmt.Fprintln(w, pl.Path)
	} else {
		fmt.Fprintf(w, "%s (%s)\n", pl.Title, pl.Path)
	}
	fmt.Fprintf(w, "%s in %s", human.Count(len(pl.Phases), "phase", "phases"), human.Count(len(batches), "batch", "batches"))
	gs, from := gates.Declared(pl.Gates, fromConfig)
	if len(gs) > 0 {
		var kinds []string
		for _, g := range gs {
			kinds = append(kinds, g.Kind+": "+g.Command)
		}
		if from == gates.FromConfig {
			fmt.Fprint(w, "; quality gates (from autobuild.toml)")
		} else {
			fmt.Fprint(w, "; quality gates")
		}
		fmt.Fprintf(w, ": %s", sanitize.Line(strings.Join(kinds, "; ")))
	} else {
		fmt.Fprint(w, "; quality gates: detected from the repository at run time")
	}
	fmt.Fprintln(w)
	for _, b := range batches {
		fmt.Fprintf(w, "\nBatch %d%s\n", b.Index, batchNote(b))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, p := range b.Phases {
			deps := "-"
			if len(p.DependsOn) > 0 {
				deps = phaseid.Join(displayIDs(pl, p.DependsOn), ", ")
			}
			extra := ""
			if len(p.ParallelWith) > 0 {
				extra = "parallel with " + phaseid.Join(displayIDs(pl, p.ParallelWith), ", ")
			}
			if p.Done() {
				extra = strings.TrimSpace(extra + "  (" + string(p.Status) + " in the plan: not run)")
			}
			row := fmt.Sprintf("  %s\t%s\tdepends on: %s", p.DisplayID, p.Name, deps)
			if extra != "" {
				// Only a row with a last column gets a tab: tabwriter pads
				// every cell a tab ends, which left trailing spaces.
				row += "\t" + extra
			}
			fmt.Fprintln(tw, row)
		}
		tw.Flush()
	}
}

// batchNote says how a batch's phases run: together, or in groups one after
// another (the Parallel With rule of docs/running.md).
func batchNote(b plan.Batch) string {
	if len(b.Phases) < 2 {
		return ""
	}
	if len(b.Groups) == 1 {
		return " (in parallel)"
	}
	var groups []string
	for _, g := range b.Groups {
		var ids []phaseid.Display
		for _, p := range g {
			ids = append(ids, p.DisplayID)
		}
		groups = append(groups, phaseid.Join(ids, "+"))
	}
	return " (one after another: " + strings.Join(groups, " then ") + ")"
}

// plural is "1 batch", "2 batches", "3 phases".
// displayIDs names ids as the plan writes them; an id of no phase is
// shown as it is.
func displayIDs(pl *plan.Plan, ids []phaseid.ID) []phaseid.Display {
	out := make([]phaseid.Display, len(ids))
	for i, id := range ids {
		out[i] = phaseid.Display(id)
		if p := pl.Phase(id); p != nil {
			out[i] = p.DisplayID
		}
	}
	return out
}

func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErr("%s (got %d arguments); see autobuild %s --help", msg, len(args), cmd.Name())
		}
		return nil
	}
}
