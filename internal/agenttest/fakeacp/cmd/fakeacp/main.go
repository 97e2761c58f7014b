// Command fakeacp is the scripted ACP agent of package fakeacp as a
// program, for the end-to-end tests of the autobuild binary: its script is
// the JSON in $AUTOBUILD_FAKE_ACP_SCRIPT.
package main

import (
	"os"

	"github.com/autobuild-sh/autobuild/internal/agenttest/fakeacp"
)

func main() { os.Exit(fakeacp.Main()) }
