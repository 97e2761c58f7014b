package adapters

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// setupKind is a kind of setup problem an agent CLI reports: each CLI names
// its own fix for each.
type setupKind string

const (
	setupLogin setupKind = "login" // no credentials at all
	setupKey   setupKind = "key"   // credentials refused (401, 403)
	setupRoot  setupKind = "root"  // refuses to skip permissions as root
	setupTrust setupKind = "trust" // the folder is not trusted
	// setupAccess: the key works but may not use the model (403).
	setupAccess setupKind = "access"
	// setupNetwork: the model API cannot be reached at all.
	setupNetwork setupKind = "network"
)

// textSignal is one row of the text patterns read from what an agent CLI
// said, after its structured error: the second source of signals.
type textSignal struct {
	re    func() *regexp.Regexp
	typ   failreport.Type
	setup setupKind
}

// textSignals are the CLIs' own messages, as the pinned versions print them
// (claude 2.1.330, codex 0.169.0, gemini 0.61.0).
var textSignals = []textSignal{
	{lazyre.New(`(?i)cannot be used with root/sudo privileges`), failreport.AgentSetup, setupRoot},
	{lazyre.New(`(?i)not running in a trusted (?:directory|folder)|folder is not trusted`), failreport.AgentSetup, setupTrust},
	{lazyre.New(`(?i)not logged in|please run /login|no codex credentials|run codex login|please set an auth method|invalid auth method|missing environment variable`), failreport.AgentSetup, setupLogin},
	{lazyre.New(`(?i)does not have access to model|does not have permission to use|permission[ _]denied`), failreport.AgentSetup, setupAccess},
	{lazyre.New(`(?i)invalid api key|invalid x-api-key|incorrect api key|api key not valid|authentication_failed|authentication_error|\b401\b[^\n]{0,20}unauthori[sz]ed|unauthori[sz]ed[^\n]{0,20}\b401\b|\b403\b[^\n]{0,20}forbidden|permission_error`), failreport.AgentSetup, setupKey},
	{lazyre.New(`(?i)prompt is too long|prompt_too_long|context[ _-]length|context window|maximum context|exceeds the maximum number of tokens`), failreport.ContextExhausted, ""},
	{lazyre.New(`(?i)rate[ _-]?limit|too many requests|overloaded|at capacity|\b429\b|\b529\b|usage limit|hit your (?:[\w-]+ )?limit|high demand|quota`), failreport.RateLimited, ""},
}

// matchText returns the first text signal matching s, and its line.
func matchText(s string) (textSignal, string, bool) {
	for _, ts := range textSignals {
		if loc := ts.re().FindStringIndex(s); loc != nil {
			start := strings.LastIndexByte(s[:loc[0]], '\n') + 1
			end := strings.IndexByte(s[loc[0]:], '\n')
			if end < 0 {
				end = len(s)
			} else {
				end += loc[0]
			}
			return ts, cleanLine(s[start:end]), true
		}
	}
	return textSignal{}, "", false
}

// statusSignal maps an HTTP status the CLI reports for its model API to a
// signal type: the structured source, read before any text.
func statusSignal(status int) (failreport.Type, setupKind, bool) {
	switch status {
	case 401:
		return failreport.AgentSetup, setupKey, true
	case 403:
		return failreport.AgentSetup, setupAccess, true
	case 429, 503, 529:
		return failreport.RateLimited, "", true
	case 413:
		return failreport.ContextExhausted, "", true
	}
	return "", "", false
}

// fixes names each CLI's fix for each setup kind.
type fixes map[setupKind]string

// signal builds a Signal of type t; for agent_setup, the CLI's fix for the
// kind (what is wrong is said by the CLI's own words, detail).
func (f fixes) signal(cli string, t failreport.Type, kind setupKind, detail string) *agent.Signal {
	s := &agent.Signal{Type: t, Message: detail}
	if t == failreport.AgentSetup {
		s.Message = fmt.Sprintf("%s %s", cli, setupWhat[kind])
		if detail != "" {
			s.Message += " (" + detail + ")"
		}
		s.Fix = f[kind]
	}
	return s
}

// setupWhat says what each setup kind means, after the CLI's name.
var setupWhat = map[setupKind]string{
	setupLogin:   "is not logged in",
	setupKey:     "was refused by its model API: the key or login is not valid",
	setupRoot:    "refuses to run as root with its permission checks skipped",
	setupTrust:   "does not trust the folder it runs in",
	setupAccess:  "was refused by its model API (403): the key or account may not use this model",
	setupNetwork: "cannot reach its model API",
}

// fromText is the signal the text s shows, nil when none.
func (f fixes) fromText(cli, s string) *agent.Signal {
	ts, line, ok := matchText(s)
	if !ok {
		return nil
	}
	return f.signal(cli, ts.typ, ts.setup, line)
}

// cleanLine makes text from an agent one clean line for a terminal: control
// characters and escape sequences dropped, runs of space folded, at most
// 300 characters.
func cleanLine(s string) string {
	s = strings.Join(strings.Fields(sanitize.Line(strings.ReplaceAll(s, "\n", " "))), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:299]) + "…"
	}
	return s
}

// decodeLine decodes one JSON line of a stream into v; false for anything
// else (a CLI's plain warning, a blank line).
func decodeLine(line string, v any) bool {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "{") {
		return false
	}
	return json.Unmarshal([]byte(line), v) == nil
}

// tail keeps the last n lines appended to it: a bounded memory of a stream.
type tail struct {
	n     int
	lines []string
}

func (t *tail) add(l string) {
	t.lines = append(t.lines, l)
	if len(t.lines) > 2*t.n {
		t.lines = append(t.lines[:0], t.lines[len(t.lines)-t.n:]...)
	}
}

func (t *tail) String() string {
	l := t.lines
	if len(l) > t.n {
		l = l[len(l)-t.n:]
	}
	return strings.Join(l, "\n")
}

// stderrNote handles a line a preset CLI printed on stderr: an echo of the
// prompt is not the agent speaking and is dropped; anything else is kept in
// t (under mu; as printed when keepRaw, else cleaned) for the classifier and
// shown as a note.
func stderrNote(prompt promptLines, mu *sync.Mutex, t *tail, line string, keepRaw bool) []agent.Note {
	if prompt.echoed(line) {
		return nil
	}
	l := cleanLine(line)
	if l == "" {
		return nil
	}
	kept := l
	if keepRaw {
		kept = line
	}
	mu.Lock()
	t.add(kept)
	mu.Unlock()
	return []agent.Note{{Text: l}}
}
