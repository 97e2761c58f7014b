package agent

import (
	"strings"
	"sync"
)

// aiderAdapter is aider (aider-chat). aider has no machine-readable output
// mode, so its stdout is read as text: the result object is looked for at
// its end, never in its stderr.
type aiderAdapter struct{}

func (aiderAdapter) Name() string { return "aider" }

// Args: aider commits every change by default and would add .aider* to
// .gitignore: both are turned off, since the engine owns git. Its chat
// history files would otherwise land in the worktree as new files. It reads
// the prompt from a file, so a small shell passes $AUTOBUILD_PROMPT_FILE
// and then the user's own arguments ("$@").
func (aiderAdapter) Args() []string {
	return []string{"sh", "-c", `exec aider --yes-always --no-auto-commits --no-dirty-commits --no-gitignore --no-check-update` +
		` --input-history-file /dev/null --chat-history-file /dev/null --message-file "$AUTOBUILD_PROMPT_FILE" "$@"`, "aider"}
}

func (aiderAdapter) Env() []string { return nil }

var aiderFixes = fixes{
	setupLogin:  "set the API key of aider's model (ANTHROPIC_API_KEY, OPENAI_API_KEY, …) or put it in .aider.conf.yml",
	setupKey:    "check the API key of aider's model; a key that worked before may have been revoked",
	setupRoot:   "run autobuild as a non-root user",
	setupTrust:  "trust the repository",
	setupAccess: "check that the key may use aider's model",
}

// Check: aider takes keys for many providers from many places (the
// environment, .env, .aider.conf.yml in three folders): nothing is checked
// before the run; a refused key is read from its output.
func (aiderAdapter) Check(System) []SetupProblem { return nil }

func (aiderAdapter) NewParser(prompt, dir string) Parser {
	return &aiderParser{prompt: newPromptLines(prompt), out: tail{n: 400}, stderr: tail{n: 40}}
}

type aiderParser struct {
	prompt promptLines

	mu     sync.Mutex // guards everything below
	out    tail
	stderr tail
}

func (p *aiderParser) Stdout(line string) []Note {
	p.mu.Lock()
	p.out.add(line)
	p.mu.Unlock()
	if l := cleanLine(line); l != "" {
		return []Note{{Text: l}}
	}
	return nil
}

func (p *aiderParser) Stderr(line string) []Note {
	if p.prompt.echoed(line) {
		return nil
	}
	p.mu.Lock()
	p.stderr.add(line)
	p.mu.Unlock()
	if l := cleanLine(line); l != "" {
		return []Note{{Text: l}}
	}
	return nil
}

func (p *aiderParser) Finish(exitCode int) Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := Outcome{Final: p.out.String()}
	if exitCode == 0 {
		return out
	}
	said := strings.TrimSpace(lastN(p.out.String(), 20) + "\n" + p.stderr.String())
	out.Said = said
	out.Signal = aiderFixes.fromText("aider", said)
	return out
}

// lastN is the last n lines of s.
func lastN(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
