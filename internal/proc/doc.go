// Package proc runs one supervised child process: an agent or a quality gate.
//
// Every child runs in a process group of its own, led by a guard (this same
// binary, started again; see guard.go), so that a stop reaches everything the
// child spawned: a stop sends SIGTERM to the group, waits a grace period, then
// sends SIGKILL. When the child exits, whatever it left running in its group
// is killed too, so no phase leaves orphans behind. If autobuild itself dies,
// kill -9 included, the guard kills the group, and on Linux the child also
// gets a parent-death signal: nothing is left editing a worktree nobody
// watches.
//
// Output (stdout and stderr merged, in order) goes to a writer, line by line
// to a callback, and its last bytes are kept for failure classification.
package proc
