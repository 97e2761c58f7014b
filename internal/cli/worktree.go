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

// worktreeDoc is what each phase's worktree gets before its agent starts
// ([worktree] and .worktreeinclude), as validate shows it: in --json, the
// document's "worktree" (absent when neither is set).
type worktreeDoc struct {
	// Patterns are [worktree] copy, then .worktreeinclude's lines.
	Patterns []string `json:"patterns"`
	// Files are the ignored files and folders of your checkout they
	// match now (a folder ends in a slash).
	Files     []string `json:"files"`
	Setup     string   `json:"setup,omitempty"`
	Teardown  string   `json:"teardown,omitempty"`
	Ports     int      `json:"ports"`
	PortBase  int      `json:"port_base"`
	FilesNote string   `json:"-"`
}

// worktreeInfo reads autobuild.toml and .worktreeinclude in the
// repository around the current directory; nil when neither sets anything
// (or autobuild.toml cannot be read: a run says why).
func worktreeInfo(ctx context.Context) *worktreeDoc {
	root, _ := os.Getwd()
	if repo, err := gitx.Open(ctx, "."); err == nil {
		root = repo.Root()
	}
	fc, err := config.Load(root)
	if err != nil {
		return nil
	}
	wc := fc.Worktree
	patterns, err := wtenv.Patterns(root, wc.Copy)
	doc := &worktreeDoc{Patterns: nonNil(patterns), Files: []string{}, Setup: wc.Setup, Teardown: wc.Teardown,
		Ports: wc.Ports, PortBase: wc.PortBase}
	if doc.Ports == 0 {
		doc.Ports = wtenv.DefaultPorts
	}
	if doc.PortBase == 0 {
		doc.PortBase = wtenv.DefaultPortBase
	}
	if err != nil {
		doc.FilesNote = err.Error()
		return doc
	}
	if len(patterns) == 0 && wc.Setup == "" && wc.Teardown == "" && wc.Ports == 0 && wc.PortBase == 0 {
		return nil
	}
	if len(patterns) == 0 {
		return doc
	}
	entries, err := wtenv.Select(ctx, root, patterns)
	if err != nil {
		doc.FilesNote = err.Error()
		return doc
	}
	for _, e := range entries {
		doc.Files = append(doc.Files, e.String())
	}
	return doc
}

// printWorktree prints doc after the batches (validate, --dry-run);
// nothing for nil.
func printWorktree(w io.Writer, doc *worktreeDoc) {
	if doc == nil {
		return
	}
	fmt.Fprintln(w, "\nEach phase's worktree gets, before its agent starts:")
	switch {
	case doc.FilesNote != "":
		fmt.Fprintf(w, "  files: %s\n", sanitize.Line(doc.FilesNote))
	case len(doc.Patterns) == 0:
	case len(doc.Files) == 0:
		fmt.Fprintf(w, "  files: none yet (no ignored file of your checkout matches %s)\n", sanitize.Line(strings.Join(doc.Patterns, ", ")))
	default:
		fmt.Fprintf(w, "  files: %s (ignored in your checkout; brought in, never committed)\n", sanitize.Line(strings.Join(doc.Files, ", ")))
	}
	if doc.Setup != "" {
		fmt.Fprintf(w, "  setup: %s\n", sanitize.Line(doc.Setup))
	}
	if doc.Teardown != "" {
		fmt.Fprintf(w, "  teardown: %s\n", sanitize.Line(doc.Teardown))
	}
	fmt.Fprintf(w, "  ports: %s\n", wtenv.NewPorts(doc.PortBase, doc.Ports).Describe())
}
