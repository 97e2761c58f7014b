// Package temporaltest starts a Temporal dev server (tools/temporal-dev) for
// tests: the server process listens on a free port of 127.0.0.1 with its
// store in memory and is stopped when the test ends.
//
// The server is a program of its own, with its own go.mod, so that the
// autobuild module does not carry go.temporal.io/server's dependencies. It is
// built once into a cache keyed by its sources ($AUTOBUILD_TEMPORAL_DEV names
// a built one instead, as .ci/run does). When it cannot be built (no Go, no
// network for its modules) the test is skipped with one line saying why,
// except under CI=true, where that fails the test.
package temporaltest
