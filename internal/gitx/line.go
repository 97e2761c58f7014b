package gitx

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// The run's line (its integration branch) lives in git's objects and one
// ref, not in a worktree: a phase's commit that was not made on the line's
// tip is picked onto it by a merge computed on trees (`merge-tree
// --write-tree`) and a commit made from the result (`commit-tree`), and
// the branch is moved (`update-ref`; in auto mode the engine fast-forwards
// your branch instead). None of these reads or writes a work tree, so
// their cost follows the size of the phase's change, not of the
// repository's tree, and no worktree has to be checked out, kept clean or
// repaired after a kill.

// Pick makes the commit a cherry-pick of sha onto commit onto would make,
// without any work tree: the same three-way merge (git's ort strategy,
// renames included), sha's author, author date and message, and the
// current identity as committer. It returns the new commit, or onto itself
// when sha's change is already there. On conflicts it returns the
// conflicted paths, a nil error and writes nothing that a ref points to.
//
// parentInOnto says that sha's parent is an ancestor of onto, as a phase's
// start is of the line it lands on: git then finds that parent as the
// merge base by itself. Otherwise (a replay onto other commits) the merge
// is made between stand-in commits that share sha's parent's tree as their
// only ancestor, which is what a cherry-pick merges against.
func (r *Repo) Pick(ctx context.Context, onto, sha string, parentInOnto bool) (string, []string, error) {
	ours, theirs := onto, sha
	if !parentInOnto {
		var err error
		if ours, theirs, err = r.standIns(ctx, onto, sha); err != nil {
			return "", nil, err
		}
	}
	tree, conflicted, err := r.mergeTrees(ctx, ours, theirs)
	if err != nil || len(conflicted) > 0 {
		return "", conflicted, err
	}
	cs, err := r.readCommits(ctx, onto, sha)
	if err != nil {
		return "", nil, err
	}
	if tree == cs[0].tree {
		return onto, nil, nil // nothing left to pick: the change is there
	}
	c := cs[1]
	env := []string{"GIT_AUTHOR_NAME=" + c.authorName, "GIT_AUTHOR_EMAIL=" + c.authorEmail, "GIT_AUTHOR_DATE=" + c.authorDate}
	args := []string{"commit-tree", tree, "-p", onto, "-F", "-"}
	if r.sign {
		args = append(args, "-S") // as cherry-pick signed, with the key git commit uses
	}
	out, err := run(ctx, r.root, runOpts{config: r.identity, env: env, stdin: strings.NewReader(c.message)}, args...)
	if err != nil {
		return "", nil, err
	}
	return strings.TrimSpace(out), nil, nil
}

// mergeTrees merges commits ours and theirs at their merge base and
// returns the resulting tree, or the conflicted paths.
func (r *Repo) mergeTrees(ctx context.Context, ours, theirs string) (string, []string, error) {
	out, err := r.read(ctx, "", "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ours, theirs)
	// -z output: the tree, then each conflicted path, each ended by NUL;
	// exit status 1 means conflicts, anything else non-zero a failure.
	fields := strings.Split(out, "\x00")
	if err != nil && exitCode(err) != 1 {
		return "", nil, err
	}
	if err == nil {
		return fields[0], nil, nil
	}
	var conflicted []string
	for _, f := range fields[1:] {
		if f == "" {
			break // the end of the conflicted paths
		}
		conflicted = append(conflicted, f)
	}
	if len(conflicted) == 0 {
		return "", nil, err
	}
	return "", conflicted, nil
}

// standIns are two commits with sha's parent's tree as their one common
// ancestor, carrying onto's tree and sha's: merging them is merging sha's
// change into onto. They are reachable from no ref (git's gc removes them).
func (r *Repo) standIns(ctx context.Context, onto, sha string) (string, string, error) {
	commitTree := func(tree string, parent ...string) (string, error) {
		args := []string{"commit-tree", tree, "-m", "autobuild: stand-in for a pick"}
		for _, p := range parent {
			args = append(args, "-p", p)
		}
		out, err := run(ctx, r.root, runOpts{config: r.identity}, args...)
		return strings.TrimSpace(out), err
	}
	base, err := commitTree(sha + "^^{tree}")
	if err != nil {
		return "", "", fmt.Errorf("picking %s: %w", sha, err)
	}
	ours, err := commitTree(onto+"^{tree}", base)
	if err != nil {
		return "", "", fmt.Errorf("picking %s: %w", sha, err)
	}
	theirs, err := commitTree(sha+"^{tree}", base)
	if err != nil {
		return "", "", fmt.Errorf("picking %s: %w", sha, err)
	}
	return ours, theirs, nil
}

// rawCommit is what Pick reads of a commit: its tree, author and message.
type rawCommit struct {
	tree                                string
	authorName, authorEmail, authorDate string
	message                             string
}

// readCommits reads the commits shas from their objects, as they are, in
// one git command (`cat-file --batch`): the message byte for byte.
func (r *Repo) readCommits(ctx context.Context, shas ...string) ([]rawCommit, error) {
	out, err := run(ctx, r.root, runOpts{stdin: strings.NewReader(strings.Join(shas, "\n") + "\n")}, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	commits := make([]rawCommit, 0, len(shas))
	for _, sha := range shas {
		// Each object: "<oid> commit <size>\n<size bytes>\n".
		header, rest, _ := strings.Cut(out, "\n")
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "commit" {
			return nil, fmt.Errorf("reading commit %s: git cat-file: %q", sha, header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size > len(rest) {
			return nil, fmt.Errorf("reading commit %s: git cat-file: %q", sha, header)
		}
		c, err := parseCommit(sha, rest[:size])
		if err != nil {
			return nil, err
		}
		commits = append(commits, c)
		out = strings.TrimPrefix(rest[size:], "\n")
	}
	return commits, nil
}

// parseCommit reads a commit object's tree and author headers and its
// message.
func parseCommit(sha, raw string) (rawCommit, error) {
	headers, message, _ := strings.Cut(raw, "\n\n")
	c := rawCommit{message: message}
	for h := range strings.SplitSeq(headers, "\n") {
		if tree, ok := strings.CutPrefix(h, "tree "); ok {
			c.tree = tree
		}
		rest, ok := strings.CutPrefix(h, "author ")
		if !ok {
			continue
		}
		// "Name <email> 1700000000 +0000"
		lt, gt := strings.Index(rest, " <"), strings.LastIndex(rest, "> ")
		if lt < 0 || gt < lt {
			return rawCommit{}, fmt.Errorf("reading commit %s: its author line %q", sha, h)
		}
		c.authorName, c.authorEmail, c.authorDate = rest[:lt], rest[lt+2:gt], "@"+rest[gt+2:]
	}
	if c.tree == "" || c.authorDate == "" {
		return rawCommit{}, fmt.Errorf("reading commit %s: no tree or author", sha)
	}
	return c, nil
}

// BranchCommit returns the commit local branch name points at, and false
// when there is no such branch.
func (r *Repo) BranchCommit(ctx context.Context, name string) (string, bool, error) {
	out, err := r.read(ctx, "", "rev-parse", "--verify", "-q", "refs/heads/"+name+"^{commit}")
	if err != nil {
		if exitCode(err) == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	return strings.TrimSpace(out), true, nil
}

// MoveBranch points local branch name at commit to, creating it if need
// be. With expect set, it moves only a branch still at expect (git checks
// and moves in one step), so a move made meanwhile by anyone else is an
// error, not overwritten. No work tree changes: the branch must be checked
// out nowhere, as the run's line is not.
func (r *Repo) MoveBranch(ctx context.Context, name, to, expect string) error {
	args := []string{"update-ref", "-m", "autobuild: the run's line", "refs/heads/" + name, to}
	if expect != "" {
		args = append(args, expect)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.write(ctx, "", runOpts{}, args...)
	return err
}

// NewestNotIn returns the newest of commits that head does not hold (its
// descendants first: on a line, the one nearest the tip), or "" when head
// holds them all. One git command, the commits on its standard input.
func (r *Repo) NewestNotIn(ctx context.Context, head string, commits []string) (string, error) {
	if len(commits) == 0 {
		return "", nil
	}
	in := strings.NewReader(strings.Join(commits, "\n") + "\n")
	out, err := run(ctx, r.root, runOpts{stdin: in}, "rev-list", "--topo-order", "-n1", "--stdin", "^"+head)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}
