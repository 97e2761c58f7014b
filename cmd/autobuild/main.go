// Command autobuild runs a multi-phase implementation plan with coding agents
// and supervises the run live. See the README, or `autobuild --help`.
package main

import (
	"os"

	"github.com/autobuild-sh/autobuild/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
