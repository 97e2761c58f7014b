package remote

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Shared is the coordinator's side of the remote every worker reaches: it
// pushes attempts' bases, fetches their commits and deletes the run's refs.
// It pushes only refs under refs/autobuild/<run-id>/, and only commits:
// none of your branches ever leaves your repository.
type Shared struct {
	// Repo is the user's repository (any directory in it).
	Repo string
	// Remote is the git URL (NormalizeRemote'd).
	Remote string
	RunID  string
}

// PushBase pushes commit to the attempt's base ref, so a worker can fetch
// it. Pushing a ref that already holds commit is a no-op for git.
func (s Shared) PushBase(ctx context.Context, commit, ref string) error {
	if !isCommitID(commit) {
		return fmt.Errorf("pushing a base: %q is not a full commit id", commit)
	}
	if err := checkRef(ctx, s.RunID, ref); err != nil {
		return err
	}
	if _, err := git(ctx, s.Repo, "push", "--quiet", "--no-verify", s.Remote, "+"+commit+":"+ref); err != nil {
		return fmt.Errorf("pushing the attempt's base to %s on %s: %w", ref, s.Remote, err)
	}
	return nil
}

// FetchResult fetches the attempt's commit from ref into the user's
// repository, kept under the same ref name there until the run ends, and
// checks that it is the commit the worker named.
func (s Shared) FetchResult(ctx context.Context, ref, commit string) error {
	if !isCommitID(commit) {
		return fmt.Errorf("fetching a result: %q is not a full commit id", commit)
	}
	if err := checkRef(ctx, s.RunID, ref); err != nil {
		return err
	}
	if _, err := git(ctx, s.Repo, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", s.Remote, "+"+ref+":"+ref); err != nil {
		return fmt.Errorf("fetching the attempt's commit %s from %s: %w", ref, s.Remote, err)
	}
	got, err := git(ctx, s.Repo, "rev-parse", "--verify", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return fmt.Errorf("reading %s after the fetch: %w", ref, err)
	}
	if got != commit {
		return fmt.Errorf("%s on %s holds %s, not the commit %s the worker made: something else pushed over it", ref, s.Remote, got, commit)
	}
	return nil
}

// fetchWork fetches the commit of attempt key's result, or of the result
// its usage limit carries: the try that made it pushed it to a ref of its
// own, and that one, only a try's ref of this attempt, is fetched.
func (s Shared) fetchWork(ctx context.Context, key string, req AttemptRequest, res AttemptResult) error {
	if res.Limit != nil && res.Limit.Result != nil {
		res = *res.Limit.Result
	}
	if res.Commit == "" {
		return nil
	}
	if err := CheckTryRef(req.RunID, req.ResultRef, res.Ref); err != nil {
		return fmt.Errorf("attempt %s's result: %w", key, err)
	}
	return s.FetchResult(ctx, res.Ref, res.Commit)
}

// DeleteRefs deletes every ref of the run, on the remote and in the user's
// repository (the fetched results); a ref already gone is no error.
func (s Shared) DeleteRefs(ctx context.Context) error {
	prefix := RunRefPrefix(s.RunID)
	if err := CheckRunID(s.RunID); err != nil {
		return err
	}
	var errs []error
	out, err := git(ctx, s.Repo, "ls-remote", "--refs", s.Remote, prefix+"*")
	if err != nil {
		errs = append(errs, fmt.Errorf("listing the run's refs on %s: %w", s.Remote, err))
	}
	var remote []string
	for line := range strings.SplitSeq(out, "\n") {
		if _, ref, ok := strings.Cut(line, "\t"); ok && strings.HasPrefix(ref, prefix) {
			remote = append(remote, ref)
		}
	}
	for batch := range slices.Chunk(remote, 200) {
		args := []string{"push", "--quiet", "--no-verify", s.Remote}
		for _, ref := range batch {
			args = append(args, ":"+ref)
		}
		if _, err := git(ctx, s.Repo, args...); err != nil {
			errs = append(errs, fmt.Errorf("deleting the run's refs on %s: %w", s.Remote, err))
		}
	}
	local, err := git(ctx, s.Repo, "for-each-ref", "--format=%(refname)", prefix)
	if err != nil {
		errs = append(errs, fmt.Errorf("listing the run's fetched refs: %w", err))
	}
	var del strings.Builder
	for ref := range strings.SplitSeq(local, "\n") {
		if strings.HasPrefix(ref, prefix) {
			fmt.Fprintf(&del, "delete %s\n", ref)
		}
	}
	if del.Len() > 0 {
		if err := updateRefs(ctx, s.Repo, del.String()); err != nil {
			errs = append(errs, fmt.Errorf("deleting the run's fetched refs: %w", err))
		}
	}
	return errors.Join(errs...)
}

// CheckPush proves the coordinator can push to the remote: it pushes a
// probe ref of the run's and deletes it, within limit.
func (s Shared) CheckPush(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	head, err := git(ctx, s.Repo, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return fmt.Errorf("reading HEAD of %s: %w", s.Repo, err)
	}
	probe := RunRefPrefix(s.RunID) + "probe"
	if err := checkRef(ctx, s.RunID, probe); err != nil {
		return err
	}
	if _, err := git(ctx, s.Repo, "push", "--quiet", "--no-verify", s.Remote, "+"+head+":"+probe); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("pushing to %s took longer than %s: %w", s.Remote, limit, err)
		}
		return fmt.Errorf("autobuild cannot push to %s: %w", s.Remote, err)
	}
	if _, err := git(ctx, s.Repo, "push", "--quiet", "--no-verify", s.Remote, ":"+probe); err != nil {
		return fmt.Errorf("deleting the probe ref %s on %s: %w", probe, s.Remote, err)
	}
	return nil
}
