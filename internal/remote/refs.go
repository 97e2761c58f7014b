package remote

import (
	"errors"
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The refs a remote run uses on the shared remote, all under
// refs/autobuild/<run-id>/, outside refs/heads and refs/tags: a fetch of
// the remote's branches never brings them, and autobuild never pushes
// anything else (your branches stay yours).
//
//	refs/autobuild/<run-id>/base/<phase>/<seq>                 the attempt's base (the coordinator pushes it)
//	refs/autobuild/<run-id>/result/<phase>/<seq>/<try>-<wf>    a try's commit (the worker that made the try pushes it)
//
// <phase> is the phase's state.FileID, already safe for a ref name. Each
// try of an attempt (the workflow makes it again when its worker dies or
// is cut off) has its own result ref: <try> is its number and <wf> names
// the workflow's run (a server that lost the workflow starts it again, and
// its tries count from 1 again), so a worker cut off from the server whose
// push lands late writes only its own try's ref, never the result of the
// try that replaced it, and may delete it again (TryRef).

// RunRefPrefix is what every ref of run runID starts with.
func RunRefPrefix(runID string) string { return "refs/autobuild/" + runID + "/" }

// BaseRef is where the coordinator pushes the base of attempt seq of phase.
func BaseRef(runID string, phase phaseid.ID, seq int) string {
	return fmt.Sprintf("%sbase/%s/%d", RunRefPrefix(runID), state.FileIDOf(phase), seq)
}

// ResultRef is what the result refs of attempt seq of phase start with:
// each try of it pushes to a ref of its own under it (TryRef); nothing is
// ever pushed to ResultRef itself.
func ResultRef(runID string, phase phaseid.ID, seq int) string {
	return fmt.Sprintf("%sresult/%s/%d", RunRefPrefix(runID), state.FileIDOf(phase), seq)
}

// TryRef is the ref the n-th try of an attempt pushes its commit to:
// under the attempt's resultRef, named by n and by the workflow run
// (workflowRun, the server's id of the run's workflow; only its letters
// and digits are kept, 12 at most).
func TryRef(resultRef string, n int, workflowRun string) string {
	var id strings.Builder
	for _, c := range workflowRun {
		if id.Len() == 12 {
			break
		}
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			id.WriteRune(c)
		}
	}
	if id.Len() == 0 {
		return fmt.Sprintf("%s/%d", resultRef, n)
	}
	return fmt.Sprintf("%s/%d-%s", resultRef, n, id.String())
}

// CheckTryRef refuses a try's ref that is not one of the attempt's whose
// result refs start at resultRef (a ref directly under it, valid, of run
// runID): what a worker pushes to and what the coordinator fetches.
func CheckTryRef(runID, resultRef, ref string) error {
	if err := CheckRunRef(runID, ref); err != nil {
		return err
	}
	rest, ok := strings.CutPrefix(ref, resultRef+"/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return fmt.Errorf("ref %q is not a try's ref of the attempt's %s", ref, resultRef)
	}
	return nil
}

// CheckRunRef refuses a ref that is not a valid ref name (the rules of
// `git check-ref-format`) or lies outside run runID's refs. It is pure Go,
// so the workflow's validator may call it; the git plumbing asks git too.
func CheckRunRef(runID, ref string) error {
	if err := CheckRunID(runID); err != nil {
		return err
	}
	if !strings.HasPrefix(ref, RunRefPrefix(runID)) || len(ref) == len(RunRefPrefix(runID)) {
		return fmt.Errorf("ref %q is not under %s", ref, RunRefPrefix(runID))
	}
	return CheckRefFormat(ref)
}

// CheckRunID refuses a run id that cannot be one path component of a ref.
func CheckRunID(runID string) error {
	if runID == "" || strings.Contains(runID, "/") {
		return fmt.Errorf("run id %q cannot name refs: it is empty or holds a slash", runID)
	}
	return CheckRefFormat("refs/autobuild/" + runID)
}

// CheckRefFormat applies the rules of `git check-ref-format` (without
// --allow-onelevel or --refspec-pattern) to a full ref name.
func CheckRefFormat(ref string) error {
	bad := func(why string) error { return fmt.Errorf("%q is not a valid git ref name: %s", ref, why) }
	switch {
	case ref == "" || ref == "@":
		return bad("empty or @")
	case !strings.Contains(ref, "/"):
		return bad("it has one level only")
	case strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.Contains(ref, "//"):
		return bad("an empty component")
	case strings.HasSuffix(ref, "."):
		return bad("it ends with a dot")
	case strings.Contains(ref, ".."):
		return bad("it holds ..")
	case strings.Contains(ref, "@{"):
		return bad("it holds @{")
	}
	for _, c := range ref {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return bad(fmt.Sprintf("it holds %q", c))
		}
	}
	for comp := range strings.SplitSeq(ref, "/") {
		if strings.HasPrefix(comp, ".") {
			return bad("a component starts with a dot")
		}
		if strings.HasSuffix(comp, ".lock") {
			return bad("a component ends with .lock")
		}
	}
	return nil
}

// errNotRunRef is returned for a ref the plumbing will not touch.
var errNotRunRef = errors.New("autobuild pushes and deletes only refs under refs/autobuild/<run-id>/")
