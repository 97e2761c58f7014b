// Command build-temporal-dev builds the Temporal dev server (tools/temporal-dev)
// into the cache the tests use, unless it is there already, and prints its
// path: .ci/run runs it once, in the background, and hands the path to the
// tests as AUTOBUILD_TEMPORAL_DEV. It exits 2 when the server cannot be
// built on this machine (no Go, its modules cannot be fetched) and 1 on any
// other failure (a compile error is a bug to fix).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

func main() {
	path, skip, err := temporaltest.Build(context.Background())
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "build-temporal-dev:", err)
		os.Exit(1)
	case skip != "":
		fmt.Fprintln(os.Stderr, "build-temporal-dev:", skip)
		os.Exit(2)
	}
	fmt.Println(path)
}
