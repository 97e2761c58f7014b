// Command build-temporal-dev builds the Temporal dev server (tools/temporal-dev)
// into the cache the tests use, unless it is there already, and prints its
// path: .ci/run runs it once, in the background, and hands the path to the
// tests as AUTOBUILD_TEMPORAL_DEV. It exits 1 when the server cannot be built.
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
		os.Exit(1)
	}
	fmt.Println(path)
}
