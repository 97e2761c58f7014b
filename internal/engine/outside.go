package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// outsideState is what an attempt must not change: the status of the
// user's work tree and the repository's config file. An agent is told to
// work in its worktree only; one that writes into your checkout or edits
// .git/config (a remote, an alias, a hooks path) is caught here.
type outsideState struct {
	status []string // the work tree's status entries, sorted
	config []byte   // .git/config, nil when unreadable
	// files fingerprints the common git dir's shared files (info/exclude,
	// hooks, …: gitx.CommonFiles) and your global git files
	// (gitx.Repo.UserFiles, keyed by full path); refs holds every branch and tag
	// (gitx.Repo.Refs); nil when unreadable.
	files, refs map[string]string
	ok          bool // false when the status could not be read: nothing to compare
}

// snapshotOutside reads the outside state, before or after an attempt;
// attempts that ask together share one read (sharedReads). The read holds
// in.checkout for reading: the fast-forward, which holds it for writing,
// does not move your checkout under it (a status read while another
// phase's commit is being checked out in your checkout would see its files
// half updated), and the rest of a landing goes on meanwhile.
func (in *integrator) snapshotOutside(ctx context.Context) outsideState {
	return in.outside.read(ctx, func(ctx context.Context) outsideState {
		in.checkout.RLock()
		defer in.checkout.RUnlock()
		return readOutside(ctx, in.repo)
	})
}

// readOutside reads the outside state; the caller holds in.checkout (or
// nothing else runs).
func readOutside(ctx context.Context, repo *gitx.Repo) outsideState {
	out, err := repo.MainStatus(ctx)
	if err != nil {
		return outsideState{}
	}
	cfg, _ := os.ReadFile(repo.ConfigPath())
	files, _ := repo.CommonFiles()
	if files != nil {
		maps.Copy(files, repo.UserFiles(ctx))
	}
	refs, _ := repo.Refs(ctx)
	return outsideState{status: statusEntries(out), config: cfg, files: files, refs: refs, ok: true}
}

// statusEntries splits `status -z` output into entries; a rename's source
// stays with its entry.
func statusEntries(out string) []string {
	var entries []string
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		if strings.ContainsAny(f[:2], "RC") && i+1 < len(fields) {
			f += " <- " + fields[i+1]
			i++
		}
		entries = append(entries, f)
	}
	slices.Sort(entries)
	return entries
}

// checkOutside compares the outside state after an attempt with before and
// checks the worktree's change (files, as the executor listed them) for a
// nested repository or autobuild's state directory. What it finds is
// written to the attempt log and returned as the attempt's failure; nil
// when all is well. Outside changes are left as they are: they are not
// autobuild's to undo. It also returns the state it read after the attempt
// (ok false when it read none), which landing reuses for your uncommitted
// changes.
//
// What the phase's agent committed on your branch from its worktree is
// taken off it first (agentCommits); the common git dir's files and your
// other branches and tags are compared as your checkout is.
func (in *integrator) checkOutside(ctx context.Context, p *plan.Phase, before outsideState, files []string, log io.Writer) (*failure.Report, outsideState) {
	repo := in.repo
	var nested []string
	for _, f := range files {
		if f == state.DirName || strings.HasPrefix(f, state.DirName+"/") {
			// Only a forced add gets it past the exclude rule.
			msg := fmt.Sprintf("the phase's change holds %s (%s), autobuild's state directory: it would replace "+
				"autobuild's own state in your checkout; remove it from the change", state.DirName, f)
			fmt.Fprintf(log, "# autobuild: %s\n", msg)
			rep := failure.Report{Type: failure.OutsideWorktree, Message: msg, Retryable: true, FilesChanged: []string{f}}
			rep.SuggestedActions = failure.Suggest(rep)
			return &rep, outsideState{}
		}
		if strings.HasSuffix(f, "/") {
			nested = append(nested, strings.TrimSuffix(f, "/"))
		}
	}
	if len(nested) > 0 {
		msg := fmt.Sprintf("the phase's change holds a git repository of its own (%s): committed, it would be a bare "+
			"gitlink and its files would be lost; add the files without their .git directory (or use a submodule on purpose, by hand)",
			strings.Join(nested, ", "))
		fmt.Fprintf(log, "# autobuild: %s\n", msg)
		rep := failure.Report{Type: failure.NestedRepository, Message: msg, Retryable: true, FilesChanged: nested}
		rep.SuggestedActions = failure.Suggest(rep)
		return &rep, outsideState{}
	}
	if !before.ok {
		return nil, outsideState{}
	}
	after := in.snapshotOutside(ctx)
	if !after.ok {
		return nil, after
	}
	if rep := in.agentCommits(ctx, p, before, after, log); rep != nil {
		return rep, outsideState{}
	}
	var changed []string
	for _, e := range symmetricDiff(before.status, after.status) {
		changed = append(changed, strings.TrimSpace(e[3:]))
	}
	slices.Sort(changed)
	changed = slices.Compact(changed)
	if !bytes.Equal(before.config, after.config) {
		changed = append(changed, ".git/config")
	}
	changed = append(changed, in.gitDirChanges(before, after)...)
	if len(changed) == 0 {
		return nil, after
	}
	msg := fmt.Sprintf("files outside the phase's worktree changed during the attempt, by the agent or by you: %s "+
		"(in your checkout at %s); autobuild left them as they are: an agent must work in its worktree only; "+
		"look at them (git status, git diff), keep or undo them, then resume",
		strings.Join(changed, ", "), repo.Root())
	fmt.Fprintf(log, "# autobuild: %s\n", strings.ReplaceAll(msg, "\n", " "))
	// Not retried: a retry would find the changes already made and pass,
	// and they may be yours; a person has to look at them first.
	rep := failure.Report{Type: failure.OutsideWorktree, Message: msg, Retryable: false, FilesChanged: changed,
		BlockedOn: "changes outside the worktree"}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep, after
}

// paths are the paths of the status entries (both sides of a rename): your
// uncommitted changes, untracked files one by one.
func (o outsideState) paths() []string {
	var out []string
	for _, e := range o.status {
		to, from, renamed := strings.Cut(e[3:], " <- ")
		out = append(out, to)
		if renamed {
			out = append(out, from)
		}
	}
	return out
}

// symmetricDiff returns the entries of sorted a and b that are not in both.
func symmetricDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	for _, y := range b {
		if _, found := slices.BinarySearch(a, y); !found {
			out = append(out, y)
		}
	}
	return out
}
