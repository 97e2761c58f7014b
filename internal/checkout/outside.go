// Package checkout guards your checkout while a run lands on it: what an
// attempt must not change outside its worktree, read before and after it
// (outside.go, shared between attempts that ask together:
// outsidereads.go; the git dir's shared files and your branches:
// gitdir.go), the fast-forward of your branch, the check of your branch
// and your uncommitted and ignored files before a landing (target.go,
// ignored.go). The run's line (package engine's integrator) holds its own
// lock and takes Guard's after it.
package checkout

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Guard watches over your checkout while the run lands on it: it reads
// what an attempt must not change (outside the phase's worktree) before
// and after the attempt, fast-forwards your branch for the line, and
// follows what you commit on it meanwhile. Its lock is files; the line's
// lock (integrator.mu) is taken before it, never after.
type Guard struct {
	repo    *gitx.Repo
	rec     *record.Recorder
	mainDir string // the user's work tree
	refs    state.Refs
	// line is the run's line as the guard sees it: its tip and every tip
	// it had (a commit on your branch that the run put there is not an
	// agent's).
	line Line
	// files guards your checkout's files and index: the fast-forward
	// holds it for writing, a read of its status for reading, so a read
	// never sees a landed phase's files half written, and waits for no
	// other part of a landing.
	files sync.RWMutex
	// reads shares reads of the outside state between attempts that
	// start or finish together.
	reads *sharedReads
}

// Line is what the guard reads of the run's line.
type Line interface {
	Tip() string
	// WithTips calls f with every tip the line has had, under the line's
	// lock.
	WithTips(f func(tips []string))
}

func New(repo *gitx.Repo, rec *record.Recorder, mainDir string, refs state.Refs, line Line) *Guard {
	return &Guard{repo: repo, rec: rec, mainDir: mainDir, refs: refs, line: line, reads: newSharedReads()}
}

// FastForward moves your branch to tip, holding your checkout's files for
// writing.
func (g *Guard) FastForward(ctx context.Context, tip string) error {
	g.files.Lock()
	defer g.files.Unlock()
	return g.repo.FastForward(ctx, g.mainDir, tip)
}

// outsideState is what an attempt must not change: the status of the
// user's work tree and the repository's config file. An agent is told to
// work in its worktree only; one that writes into your checkout or edits
// .git/config (a remote, an alias, a hooks path) is caught here.
type State struct {
	Status []string // the work tree's status entries, sorted
	Config []byte   // .git/config, nil when unreadable
	// Files fingerprints the common git dir's shared files (info/exclude,
	// hooks, …: gitx.CommonFiles) and your global git files
	// (gitx.Repo.UserFiles, keyed by full path); refs holds every branch and tag
	// (gitx.Repo.Refs); nil when unreadable.
	Files, Refs map[string]string
	OK          bool // false when the status could not be read: nothing to compare
}

// snapshotOutside reads the outside state, before or after an attempt;
// attempts that ask together share one read (sharedReads). The read holds
// g.files for reading: the fast-forward, which holds it for writing,
// does not move your checkout under it (a status read while another
// phase's commit is being checked out in your checkout would see its files
// half updated), and the rest of a landing goes on meanwhile.
func (g *Guard) Snapshot(ctx context.Context) State {
	return g.reads.read(ctx, func(ctx context.Context) State {
		g.files.RLock()
		defer g.files.RUnlock()
		return readOutside(ctx, g.repo)
	})
}

// readOutside reads the outside state; the caller holds g.files (or
// nothing else runs).
func readOutside(ctx context.Context, repo *gitx.Repo) State {
	out, err := repo.MainStatus(ctx)
	if err != nil {
		return State{}
	}
	cfg, _ := os.ReadFile(repo.ConfigPath())
	files, _ := repo.CommonFiles()
	if files != nil {
		maps.Copy(files, repo.UserFiles(ctx))
	}
	refs, _ := repo.Refs(ctx)
	return State{Status: StatusEntries(out), Config: cfg, Files: files, Refs: refs, OK: true}
}

// StatusEntries splits `status -z` output into entries; a rename's source
// stays with its entry.
func StatusEntries(out string) []string {
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
func (g *Guard) Check(ctx context.Context, p *plan.Phase, before State, files []string, log io.Writer) (*failreport.Report, State) {
	repo := g.repo
	var nested []string
	for _, f := range files {
		if f == state.DirName || strings.HasPrefix(f, state.DirName+"/") {
			// Only a forced add gets it past the exclude rule.
			msg := fmt.Sprintf("the phase's change holds %s (%s), autobuild's state directory: it would replace "+
				"autobuild's own state in your checkout; remove it from the change", state.DirName, f)
			fmt.Fprintf(log, "# autobuild: %s\n", msg)
			rep := failreport.Report{Type: failreport.OutsideWorktree, Message: msg, Retryable: true, FilesChanged: []string{f}}
			rep.SuggestedActions = failure.Suggest(rep)
			return &rep, State{}
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
		rep := failreport.Report{Type: failreport.NestedRepository, Message: msg, Retryable: true, FilesChanged: nested}
		rep.SuggestedActions = failure.Suggest(rep)
		return &rep, State{}
	}
	if !before.OK {
		return nil, State{}
	}
	after := g.Snapshot(ctx)
	if !after.OK {
		return nil, after
	}
	if rep := g.AgentCommits(ctx, p, before, after, log); rep != nil {
		return rep, State{}
	}
	var changed []string
	for _, e := range symmetricDiff(before.Status, after.Status) {
		changed = append(changed, strings.TrimSpace(e[3:]))
	}
	slices.Sort(changed)
	changed = slices.Compact(changed)
	if !bytes.Equal(before.Config, after.Config) {
		changed = append(changed, ".git/config")
	}
	changed = append(changed, g.gitDirChanges(before, after)...)
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
	rep := failreport.Report{Type: failreport.OutsideWorktree, Message: msg, Retryable: false, FilesChanged: changed,
		BlockedOn: "changes outside the worktree"}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep, after
}

// paths are the paths of the status entries (both sides of a rename): your
// uncommitted changes, untracked files one by one.
func (o State) paths() []string {
	var out []string
	for _, e := range o.Status {
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
