package engine

import (
	"errors"
	"strings"
	"syscall"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

// diskFullReport returns the report of an infrastructure error caused by a
// full disk (ENOSPC, or git saying so), with the cause and what to do;
// ok is false for any other error.
func diskFullReport(err error) (failreport.Report, bool) {
	var fault *executor.Fault
	if errors.As(err, &fault) && fault.NoSpace {
		// An executor's fault says so as data (it may come from another
		// machine, without the system error it had).
	} else if !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) &&
		!strings.Contains(err.Error(), "No space left on device") && !strings.Contains(err.Error(), "Disk quota exceeded") {
		return failreport.Report{}, false
	}
	rep := failreport.Report{Type: failreport.DiskFull, Retryable: false, BlockedOn: "disk space",
		Message: "the disk is full (" + err.Error() + "): free some space (the worktrees are under .autobuild/worktrees), then resume"}
	rep.SuggestedActions = failure.Suggest(rep)
	return rep, true
}
