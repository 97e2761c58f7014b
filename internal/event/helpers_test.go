package event

import "github.com/autobuild-sh/autobuild/internal/failure"

var failureReport = failure.Report{Type: failure.TestFailure, Message: "2 tests failing"}
