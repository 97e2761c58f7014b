// Package temporaltest starts a Temporal dev server (tools/temporal-dev) for
// tests: the server process listens on a free port of 127.0.0.1 with its
// store in memory and is stopped when the test ends.
//
// The server is a program of its own, with its own go.mod, so that the
// autobuild module does not carry go.temporal.io/server's dependencies. It is
// built once into a cache keyed by its sources, by
// `go run ./internal/temporaltest/cmd/build-temporal-dev` (.ci/run does this
// in the background) or by a test under AUTOBUILD_TEMPORAL_BUILD=1;
// $AUTOBUILD_TEMPORAL_DEV names a built one instead. A test never starts the
// ten-minute first build on its own: without a server it is skipped with one
// line saying why and how to build it, and under AUTOBUILD_TEMPORAL_REQUIRED=1
// (set by .ci/run once it has built the server) that fails the test instead.
package temporaltest
