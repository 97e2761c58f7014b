package adapters

import (
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

// toolNote is the note for a tool call: the verb and the one argument that
// says most ("Write calc/format.go", "Bash go test ./..."), with paths made
// relative to the working directory dir.
func toolNote(name string, input map[string]any, dir string) agent.Note {
	// Each preset's row maps its CLI's tool names to the verbs autobuild
	// shows for all of them, so a log reads the same whichever agent
	// wrote it. A tool not listed keeps its own name.
	verb := preset.Verb(name)
	if verb == "" {
		verb = cleanLine(name)
	}
	arg := ""
	for _, k := range []string{"file_path", "absolute_path", "path", "notebook_path", "command", "pattern", "url", "query", "description", "prompt"} {
		if s, ok := input[k].(string); ok && s != "" {
			arg = s
			if strings.HasSuffix(k, "path") {
				arg = relPath(s, dir)
			}
			break
		}
	}
	if arg == "" {
		if paths, ok := input["paths"].([]any); ok && len(paths) > 0 {
			if s, ok := paths[0].(string); ok {
				arg = relPath(s, dir)
			}
		}
	}
	text := verb
	if arg = cleanLine(firstLine(arg)); arg != "" {
		text += " " + arg
	}
	return agent.Note{Tool: verb, Text: text}
}

// relPath shows an absolute path under dir relative to it.
func relPath(p, dir string) string {
	if dir == "" || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return filepath.ToSlash(rel)
	}
	return p
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// textNotes turns a message of the agent into one note per non-blank line.
func textNotes(msg string) []agent.Note {
	var out []agent.Note
	for _, l := range strings.Split(msg, "\n") {
		if l = cleanLine(l); l != "" {
			out = append(out, agent.Note{Text: l})
		}
	}
	return out
}
