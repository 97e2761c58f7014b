package gitx

import (
	"context"
	"strings"
)

// A phase's commit is made in git's objects, the way the line's picks are:
// the change is staged, its tree written (`write-tree`), the commit made
// from it (`commit-tree`) and the phase's branch moved (`update-ref`).
// `git commit` would refresh the stat data of every file in the tree again
// after `git add -A` had just done so: two walks of the whole tree per
// phase, 16 ms each at 10,000 files on the bench VM. When the caller
// already knows which paths changed (the status the executor read after
// the agent), only those are staged, and no command of the commit walks
// the tree at all.

// Known is what the caller knows of a worktree's change when it commits it.
// The zero value knows nothing: everything is staged (`git add -A`).
type Known struct {
	// Files are the paths that differ from the worktree's HEAD, as
	// StatusFiles lists them, read after the last change to the worktree's
	// files. Used only when Exact. Without a Tree nothing checks them: the
	// commit relies on the status listing every path `git add -A` would
	// stage (untracked files one by one, submodules whatever their ignore
	// setting; skip-worktree and assume-unchanged entries are left out by
	// both).
	Files []string
	Exact bool
	// Tree is what the worktree's files hold, as SnapshotTree recorded it,
	// or "". When set, what Files staged is checked against it, and
	// everything is staged when the two differ.
	Tree string
	// Head is the commit the worktree's HEAD is at, or "" (then it is read).
	// The phase's branch moves only from there.
	Head string
}

// Made is a commit just made: its sha and its parent's.
type Made struct{ SHA, Parent string }

// CommitOwn commits the change of a worktree that no other command of this
// process touches meanwhile (a phase's own worktree) on its HEAD, without
// waiting for the others: it writes only that worktree's index, its branch
// and new objects, which git itself keeps safe from other commands. The
// message is made from what is committed and cleaned as CleanMessage says;
// no hook runs, and the commit is signed when commit.gpgSign is set, as git
// commit would sign it. It returns the commit and its parent (known.Head,
// or HEAD as read), or a zero Made when there was nothing to commit.
func (r *Repo) CommitOwn(ctx context.Context, dir string, known Known, message func(Changes) string) (Made, Changes, error) {
	head := known.Head
	if head == "" {
		var err error
		if head, err = r.Head(ctx, dir); err != nil {
			return Made{}, Changes{}, err
		}
	}
	tree, err := r.stageOwn(ctx, dir, known)
	if err != nil {
		return Made{}, Changes{}, err
	}
	return r.commitOn(ctx, dir, "HEAD", tree, head, message)
}

// CommitTree commits tree, the work of an attempt made elsewhere (an
// executor's handed-over commit, whose objects are in this repository),
// on head, and moves branch from head to it: the phase's commit as
// CommitOwn makes it, without a worktree. It returns a zero Made when tree
// is head's.
func (r *Repo) CommitTree(ctx context.Context, branch, tree, head string, message func(Changes) string) (Made, Changes, error) {
	return r.commitOn(ctx, "", "refs/heads/"+branch, tree, head, message)
}

// commitOn commits tree on head with the message made from its changes
// and moves ref (read in dir) from head to the commit.
func (r *Repo) commitOn(ctx context.Context, dir, ref, tree, head string, message func(Changes) string) (Made, Changes, error) {
	out, err := r.read(ctx, dir, "diff-tree", "-r", "-z", "--no-renames", "--name-status", head, tree)
	if err != nil {
		return Made{}, Changes{}, err
	}
	ch := parseNameStatus(out)
	if ch.Empty() {
		return Made{}, Changes{}, nil // the tree is HEAD's
	}
	msg := CleanMessage(message(ch))
	args := []string{"commit-tree", tree, "-p", head, "-F", "-"}
	if r.sign {
		args = append(args, "-S")
	}
	out, err = r.write(ctx, dir, runOpts{stdin: strings.NewReader(msg)}, args...)
	if err != nil {
		return Made{}, Changes{}, err
	}
	sha := strings.TrimSpace(out)
	// ref is the phase's branch, or HEAD naming it: the branch moves, and
	// only from the commit this one was made on.
	subject, _, _ := strings.Cut(msg, "\n")
	if _, err := r.write(ctx, dir, runOpts{}, "update-ref", "-m", "commit: "+subject, ref, sha, head); err != nil {
		return Made{}, Changes{}, err
	}
	return Made{SHA: sha, Parent: head}, ch, nil
}

// stageOwn stages the worktree's change in its index and returns the tree
// it holds: the known paths only when the caller knows them (checked
// against the known tree, when there is one), everything otherwise.
func (r *Repo) stageOwn(ctx context.Context, dir string, known Known) (string, error) {
	if known.Exact {
		tree, err := r.stagePaths(ctx, dir, known.Files)
		if err == nil && (known.Tree == "" || tree == known.Tree) {
			return tree, nil
		}
		// A path git would not take, or something a gate staged: what the
		// caller knew is not the whole story.
	}
	if _, err := r.write(ctx, dir, runOpts{}, "add", "-A"); err != nil {
		return "", err
	}
	return r.writeTree(ctx, dir)
}

// stagePaths stages the paths files (new, modified and deleted alike) and
// returns the index's tree. The paths are literal: a name such as `*.go`
// or `:(glob)x` is that file only.
func (r *Repo) stagePaths(ctx context.Context, dir string, files []string) (string, error) {
	if err := r.addPaths(ctx, dir, files); err != nil {
		return "", err
	}
	return r.writeTree(ctx, dir)
}

// addPaths stages the paths (new, modified and deleted alike) in the
// worktree at dir; none is no command. The paths are literal, read from
// stdin, so no name is pathspec magic and no list is too long.
func (r *Repo) addPaths(ctx context.Context, dir string, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	o := runOpts{env: []string{"GIT_LITERAL_PATHSPECS=1"}, stdin: strings.NewReader(strings.Join(paths, "\x00") + "\x00")}
	_, err := r.write(ctx, dir, o, "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul")
	return err
}

// writeTree writes the index of the worktree at dir as a tree.
func (r *Repo) writeTree(ctx context.Context, dir string) (string, error) {
	out, err := r.write(ctx, dir, runOpts{}, "write-tree")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// CleanMessage is message as `git commit -F` stores it with git's default
// clean-up ("whitespace"): trailing blanks cut from every line, runs of
// blank lines made one, blank lines at the start and end dropped, and one
// newline at the end. Lines starting with # are kept, whatever the
// repository's commit.cleanup says: a "#123" in an agent's message is
// part of it.
func CleanMessage(message string) string {
	var b strings.Builder
	blank := false
	for l := range strings.SplitSeq(strings.ReplaceAll(message, "\r\n", "\n"), "\n") {
		l = strings.TrimRight(l, " \t\r") // git's isspace: not \v or \f
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
