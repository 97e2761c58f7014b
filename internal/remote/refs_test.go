package remote

import (
	"os/exec"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// TestCheckRefFormatAgreesWithGit holds the pure check to git's own, on
// names a plan could produce and names git refuses.
func TestCheckRefFormatAgreesWithGit(t *testing.T) {
	names := []string{
		"refs/autobuild/r1/result/2a/1", "refs/autobuild/r1/base/x.y/3",
		"refs/autobuild/r 1/x", "refs/autobuild/r1/a..b", "refs/autobuild/r1/.hidden",
		"refs/autobuild/r1/x.lock", "refs/autobuild/r1/x.", "refs/autobuild/r1//x",
		"refs/autobuild/r1/a~b", "refs/autobuild/r1/a^b", "refs/autobuild/r1/a:b",
		"refs/autobuild/r1/a?b", "refs/autobuild/r1/a*b", "refs/autobuild/r1/a[b",
		"refs/autobuild/r1/a\\b", "refs/autobuild/r1/a@{b", "refs/autobuild/r1/a\tb",
		"refs/autobuild/r1/", "onelevel", "refs/autobuild/r1/ü", "refs/autobuild/r1/@",
	}
	for _, n := range names {
		gitOK := exec.Command("git", "check-ref-format", n).Run() == nil
		ourOK := CheckRefFormat(n) == nil
		if gitOK != ourOK {
			t.Errorf("%q: git says valid=%v, CheckRefFormat says valid=%v", n, gitOK, ourOK)
		}
	}
}

// TestRefsFromAnyPhaseIDAreValid: ids as a plan may write them become
// valid refs under the run's prefix, and each run's refs stay apart.
func TestRefsFromAnyPhaseIDAreValid(t *testing.T) {
	for _, id := range []string{"2a", "..", "a b", "x.lock", "é~^:", "refs/heads/main", "-rf", "base", "@{1}"} {
		for _, ref := range []string{BaseRef("20260101-000000-abcdef", phaseid.ID(id), 1), ResultRef("20260101-000000-abcdef", phaseid.ID(id), 2)} {
			if err := CheckRunRef("20260101-000000-abcdef", ref); err != nil {
				t.Errorf("phase %q: %v", id, err)
			}
			if out, err := exec.Command("git", "check-ref-format", ref).CombinedOutput(); err != nil {
				t.Errorf("phase %q: git refuses %q: %v %s", id, ref, err, out)
			}
		}
	}
	if err := CheckRunRef("r1", "refs/heads/main"); err == nil {
		t.Error("a branch passed as a run's ref")
	}
	if err := CheckRunRef("r1", "refs/autobuild/r2/result/a/1"); err == nil {
		t.Error("another run's ref passed")
	}
	if err := CheckRunID("a/b"); err == nil {
		t.Error("a run id with a slash passed")
	}
}

// A try's ref is under its attempt's result refs, one level down, and
// names the try and the workflow's run; nothing else passes for one.
func TestTryRefs(t *testing.T) {
	attempt := ResultRef(testRun, "2a", 1)
	a := TryRef(attempt, 1, "0c5e1d2a-5b7e-4c1f-9d1e-3a6f2b8c9d0e")
	if a != attempt+"/1-0c5e1d2a5b7e" {
		t.Fatalf("TryRef = %q", a)
	}
	if b := TryRef(attempt, 1, "1f00aa00-0000-0000-0000-000000000000"); b == a {
		t.Fatalf("the first try of a workflow started again shares the ref %s", a)
	}
	for _, ref := range []string{a, TryRef(attempt, 2, ""), TryRef(attempt, 3, "../x y")} {
		if err := CheckTryRef(testRun, attempt, ref); err != nil {
			t.Errorf("%s: %v", ref, err)
		}
		gitT(t, t.TempDir(), "check-ref-format", ref)
	}
	for _, ref := range []string{"", attempt, attempt + "/", attempt + "/1/2", ResultRef(testRun, "2a", 11) + "/1",
		ResultRef(testRun, "2a", 2) + "/1", "refs/heads/x", "refs/autobuild/other/result/2a/1/1", attempt + "/1..2"} {
		if err := CheckTryRef(testRun, attempt, ref); err == nil {
			t.Errorf("%q passed for a try's ref of %s", ref, attempt)
		}
	}
}
