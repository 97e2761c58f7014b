package failreport

// EnvironmentSetup means a phase's worktree could not be made ready
// before its agent started: the [worktree] setup command failed, or the
// files [worktree] copy names could not be brought in. The agent never
// ran, so it is not the agent's failure: not retried blindly (the same
// command would fail the same way) and not counted against the phase's
// retry; the report holds the command's own output and the fix.
const EnvironmentSetup Type = "environment_setup"
