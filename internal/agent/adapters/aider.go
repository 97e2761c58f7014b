package adapters

import (
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

// aiderAdapter is aider (aider-chat). aider has no machine-readable output
// mode, so its stdout is read as text: the result object is looked for at
// its end, never in its stderr.
type aiderAdapter struct{}

func (aiderAdapter) Name() string { return "aider" }

// ResumeArgs: aider keeps no session to continue.
func (aiderAdapter) ResumeArgs([]string, string) []string { return nil }

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
func (aiderAdapter) Check(agent.System) []agent.SetupProblem { return nil }

func (aiderAdapter) NewParser(prompt, dir string) agent.Parser {
	return &aiderParser{prompt: newPromptLines(prompt), out: tail{n: 400}, stderr: tail{n: 40}}
}

type aiderParser struct {
	prompt promptLines

	mu     sync.Mutex // guards everything below
	out    tail
	stderr tail
}

func (p *aiderParser) Stdout(line string) []agent.Note {
	p.mu.Lock()
	p.out.add(line)
	p.mu.Unlock()
	if l := cleanLine(line); l != "" {
		return []agent.Note{{Text: l}}
	}
	return nil
}

func (p *aiderParser) Stderr(line string) []agent.Note {
	if p.prompt.echoed(line) {
		return nil
	}
	p.mu.Lock()
	p.stderr.add(line)
	p.mu.Unlock()
	if l := cleanLine(line); l != "" {
		return []agent.Note{{Text: l}}
	}
	return nil
}

func (p *aiderParser) Finish(exitCode int) agent.Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := agent.Outcome{Final: p.out.String()}
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
