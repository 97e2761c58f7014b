package prompts

// Continue is what a CLI gets when it continues its own session after
// running out of context: the session holds the task, the worktree the work.
const Continue = "Continue the task of this session where you left off: you ran out of context in the middle of it. " +
	"The work you did so far is in the working directory; check what is there rather than re-reading everything, " +
	"finish the phase, and end with the result object the task asks for.\n"
