// Package proc runs one supervised child process: an agent or a quality gate.
//
// Every child gets its own process group so that a stop reaches everything it
// spawned: a stop sends SIGTERM to the group, waits a grace period, then sends
// SIGKILL. When the group leader exits, whatever it left running in its group
// is killed too, so no phase leaves orphans behind. On Linux the child also
// gets a parent-death signal, so `kill -9` of autobuild takes its agents down
// with it instead of leaving them editing a worktree nobody watches.
//
// Output (stdout and stderr merged, in order) goes to a writer, line by line
// to a callback, and its last bytes are kept for failure classification.
package proc
