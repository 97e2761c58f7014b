package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// printWorktree says what each phase's worktree will get before its agent
// starts ([worktree] and .worktreeinclude): what validate and --dry-run
// show after the batches. It prints nothing when neither is set.
func printWorktree(ctx context.Context, w io.Writer) {
	root, _ := os.Getwd()
	if repo, err := gitx.Open(ctx, "."); err == nil {
		root = repo.Root()
	}
	fc, err := config.Load(root)
	if err != nil {
		return // a run says why
	}
	wc := fc.Worktree
	patterns, err := wtenv.Patterns(root, wc.Copy)
	if err != nil {
		fmt.Fprintf(w, "\nEach phase's worktree: %s\n", sanitize.Line(err.Error()))
		return
	}
	if len(patterns) == 0 && wc.Setup == "" && wc.Teardown == "" && wc.Ports == 0 && wc.PortBase == 0 {
		return
	}
	fmt.Fprintln(w, "\nEach phase's worktree gets, before its agent starts:")
	if len(patterns) > 0 {
		entries, err := wtenv.Select(ctx, root, patterns)
		switch {
		case err != nil:
			fmt.Fprintf(w, "  files: %s\n", sanitize.Line(err.Error()))
		case len(entries) == 0:
			fmt.Fprintf(w, "  files: none yet (no ignored file of your checkout matches %s)\n", sanitize.Line(strings.Join(patterns, ", ")))
		default:
			fmt.Fprintf(w, "  files: %s (ignored in your checkout; brought in, never committed)\n", sanitize.Line(wtenv.List(entries)))
		}
	}
	if wc.Setup != "" {
		fmt.Fprintf(w, "  setup: %s\n", sanitize.Line(wc.Setup))
	}
	if wc.Teardown != "" {
		fmt.Fprintf(w, "  teardown: %s\n", sanitize.Line(wc.Teardown))
	}
	ports := wtenv.NewPorts(wc.PortBase, wc.Ports).Describe()
	fmt.Fprintf(w, "  ports: %s\n", ports)
}
