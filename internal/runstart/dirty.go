package runstart

import "strings"

// plainDirtyAdvice is what to do about uncommitted changes that are not
// the earlier run's own work.
const plainDirtyAdvice = "the work tree has uncommitted changes; commit them or put them aside with git stash -u " +
	"(plain git stash leaves untracked files), so autobuild's commits contain only its own work"

// untrackedAdvice replaces the plain advice for a work tree whose only
// changes are untracked files: `git stash` alone leaves them, so say what
// works. A phase's commit brought onto the branch could overwrite such a
// file, or a message-only run leave its changes mixed with it, so they
// still block. Advice about the earlier run's own changes is kept.
func untrackedAdvice(dirty []string, advice string) string {
	if advice != plainDirtyAdvice {
		return advice
	}
	for _, l := range dirty {
		if !strings.HasPrefix(l, "?? ") {
			return advice
		}
	}
	return "the work tree has untracked files, which a phase's work could overwrite or mix with: " +
		"add them to .gitignore (or .git/info/exclude) if they are not part of the project, commit them if they are, " +
		"or put them aside with git stash -u (plain git stash leaves untracked files)"
}
