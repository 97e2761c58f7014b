package agent

import "slices"

// ContinuePrompt is what a CLI gets when it continues its own session after
// running out of context: the session holds the task, the worktree the work.
const ContinuePrompt = "Continue the task of this session where you left off: you ran out of context in the middle of it. " +
	"The work you did so far is in the working directory; check what is there rather than re-reading everything, " +
	"finish the phase, and end with the result object the task asks for.\n"

// CanResume reports whether a's CLI can continue one of its sessions in
// print mode with a new prompt: claude (-p --resume ID) and codex (exec
// resume ID). gemini's --resume takes "latest" or an index into the
// project's list, not the id its stream reports, and phases share the
// repository's list, so it starts afresh with a summary instead.
//
// An ACP agent continues with session/load when it advertises it (it keeps
// its session id only then).
func CanResume(a Agent) bool {
	return a.ACP || a.Preset == "claude" || a.Preset == "codex"
}

// ResumeArgs is a's command line continuing session (with the prompt on
// stdin, as always): nil when a cannot resume.
func ResumeArgs(a Agent, session string) []string {
	args := slices.Clone(a.Args)
	switch {
	case !CanResume(a) || session == "":
		return nil
	case a.ACP:
		// The same command line: the session is loaded over the protocol.
		return args
	case a.Preset == "claude":
		return append(args, "--resume", session)
	default:
		// codex exec [its options] resume SESSION -: the options stay in
		// front of the subcommand, the "-" (prompt on stdin) goes last.
		args = slices.DeleteFunc(args, func(s string) bool { return s == "-" })
		return append(args, "resume", session, "-")
	}
}
