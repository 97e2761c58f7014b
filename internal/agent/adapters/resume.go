package adapters

import (
	"github.com/autobuild-sh/autobuild/internal/agent"
)

// CanResume reports whether a's CLI can continue one of its sessions with
// a new prompt: its adapter's ResumeArgs says how (claude -p --resume ID,
// codex exec resume ID; an ACP agent with session/load when it advertises
// it, keeping its session id only then). gemini's --resume takes "latest"
// or an index into the project's list, not the id its stream reports, and
// phases share the repository's list, so it starts afresh with a summary
// instead.
func CanResume(a agent.Agent) bool {
	return ResumeArgs(a, "session") != nil
}

// ResumeArgs is a's command line continuing session (with the prompt on
// stdin, as always): nil when a cannot resume.
func ResumeArgs(a agent.Agent, session string) []string {
	ad := For(a)
	if ad == nil || session == "" {
		return nil
	}
	return ad.ResumeArgs(a.Args, session)
}
