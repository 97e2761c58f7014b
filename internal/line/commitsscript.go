package line

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// scriptStep is one phase's commit in commits.sh.
type scriptStep struct {
	sha, message string
	id           phaseid.ID
	files        []string
}

// commitsScript writes commits.sh for --commit=message-only: per phase on
// the run's line, in completion order, one ready command that stages the
// phase's changes and commits them with its message. A file that a later
// phase changes again cannot be staged from the work tree (it holds both
// phases' changes): the earlier phase stages its own change from a patch
// written to patchDir (`git apply --cached`), so each commit holds exactly
// its phase's work and the last one leaves nothing uncommitted.
func (in *Integrator) commitsScript(ctx context.Context, phases []*state.Phase, layout *state.Store) (string, error) {
	patchDir := layout.PatchesDir()
	base := in.rec.RunCopy().BaseCommit
	shas, err := in.repo.Commits(ctx, base, in.Refs.Integration())
	if err != nil {
		return "", err
	}
	byPhase, err := in.repo.PhaseCommits(ctx, base, in.Refs.Integration())
	if err != nil {
		return "", err
	}
	idOf := map[string]phaseid.ID{}
	for id, sha := range byPhase {
		idOf[sha] = id
	}
	steps := make([]scriptStep, 0, len(shas))
	last := map[string]int{} // file → the last step that changes it
	for i, sha := range shas {
		ch, err := gitx.ChangesBetween(ctx, in.mainDir, sha+"^", sha)
		if err != nil {
			return "", err
		}
		msg, err := in.repo.Message(ctx, sha)
		if err != nil {
			return "", err
		}
		st := scriptStep{sha: sha, id: idOf[sha], message: strings.TrimRight(msg, "\n"), files: allFiles(ch)}
		for _, f := range st.files {
			last[f] = i
		}
		steps = append(steps, st)
	}

	if err := os.RemoveAll(patchDir); err != nil {
		return "", err
	}
	names := map[phaseid.ID]string{}
	for _, p := range phases {
		names[p.PhaseID] = fmt.Sprintf("Phase %s: %s", p.DisplayID, p.PhaseName)
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Written by autobuild (--commit=message-only): one commit per phase, in completion order.\n")
	b.WriteString("# Review the changes in your work tree, then run: sh .autobuild/commits.sh\nset -e\ncd \"$(git rev-parse --show-toplevel)\"\n")
	for i, st := range steps {
		var staged, patched []string
		for _, f := range st.files {
			if last[f] > i {
				patched = append(patched, f)
			} else {
				staged = append(staged, f)
			}
		}
		var cmds []string
		if len(patched) > 0 {
			patch, err := gitx.Patch(ctx, in.mainDir, st.sha+"^", st.sha, patched)
			if err != nil {
				return "", err
			}
			if err := os.MkdirAll(patchDir, 0o755); err != nil {
				return "", err
			}
			path := layout.PatchPath(i+1, st.id)
			if err := os.WriteFile(path, []byte(patch), 0o644); err != nil {
				return "", err
			}
			rel, err := filepath.Rel(in.mainDir, path)
			if err != nil {
				return "", err
			}
			cmds = append(cmds, "git apply --cached "+shell.Quote(filepath.ToSlash(rel)))
		}
		if len(staged) > 0 {
			// Literal: a file named `:!src` or `*.go` is that file.
			cmds = append(cmds, shell.Join(append([]string{"git", "--literal-pathspecs", "add", "-A", "--"}, staged...)...))
		}
		cmds = append(cmds, "git commit -m "+shell.Quote(st.message))
		fmt.Fprintf(&b, "\n# %s\n%s\n", cmp.Or(names[st.id], "a commit of the run"), strings.Join(cmds, " && "))
	}
	return b.String(), nil
}
