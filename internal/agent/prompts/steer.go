package prompts

import "strings"

// Steer is what a CLI gets when it continues its own session after a
// person stopped it with a note (autobuild's steering): the session holds
// the task, the worktree the work, the note what to change.
func Steer(note string) string {
	return "A person supervising this run stopped you to send a note:\n\n" + quoteNote(note) +
		"\nTake it into account and carry on with the task of this session: the work you did so far is in the working directory. " +
		"Finish the phase and end with the result object the task asks for.\n"
}

// WithSteer is a fresh session's full prompt with a person's note at its
// end, for an agent whose CLI cannot continue its session.
func WithSteer(prompt, note string) string {
	return strings.TrimRight(prompt, "\n") + "\n\n## A note from the person supervising this run\n\n" +
		"An earlier session on this phase was stopped so that you take this note into account; " +
		"its work so far is in this directory: check what is there and carry on from it.\n\n" + quoteNote(note)
}

// quoteNote is the note as a markdown quote, one "> " per line.
func quoteNote(note string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(note), "\n") {
		b.WriteString("> " + l + "\n")
	}
	return b.String()
}
