package state

// CommitMode is how a run's work becomes commits (docs/running.md). run.json
// keeps it as its plain string.
type CommitMode string

// The commit modes.
const (
	// CommitAuto makes a commit per phase on the current branch.
	CommitAuto CommitMode = "auto"
	// CommitMessageOnly leaves the changes uncommitted, with a script of the
	// commits to make (.autobuild/commits.sh).
	CommitMessageOnly CommitMode = "message-only"
	// CommitSingle makes one commit at the end.
	CommitSingle CommitMode = "single"
)

// CommitModes lists the commit modes, for help texts and completion.
func CommitModes() []CommitMode { return []CommitMode{CommitAuto, CommitMessageOnly, CommitSingle} }

// ParseCommitMode checks a commit mode given by a person (a flag, a config
// file); "" is not a mode.
func ParseCommitMode(s string) (CommitMode, error) {
	return parseChoice(s, CommitModes(), "commit mode")
}

// CommitModeNames is "auto, message-only, single", for messages.
func CommitModeNames() string { return choiceNames(CommitModes()) }
