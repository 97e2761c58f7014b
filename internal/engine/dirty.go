package engine

import "strings"

// untrackedAdvice replaces the advice for a work tree whose only changes
// are untracked files: `git stash` alone leaves them, so say what works. A
// phase's commit brought onto the branch could overwrite such a file, or a
// message-only run leave its changes mixed with it, so they still block.
func untrackedAdvice(dirty []string, advice string) string {
	for _, l := range dirty {
		if !strings.HasPrefix(l, "?? ") {
			return advice
		}
	}
	return "the work tree has untracked files, which a phase's work could overwrite or mix with: " +
		"add them to .gitignore (or .git/info/exclude) if they are not part of the project, commit them if they are, " +
		"or put them aside with git stash -u (plain git stash leaves untracked files)"
}
