package event

import "github.com/autobuild-sh/autobuild/internal/failreport"

var failureReport = failreport.Report{Type: failreport.TestFailure, Message: "2 tests failing"}
