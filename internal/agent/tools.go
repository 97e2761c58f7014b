package agent

import (
	"path/filepath"
	"strings"
)

// toolVerbs maps each CLI's tool names to the verbs autobuild shows for
// all of them, so a log reads the same whichever agent wrote it. A tool not
// listed keeps its own name.
var toolVerbs = map[string]string{
	// claude
	"Write": "Write", "Edit": "Edit", "MultiEdit": "Edit", "NotebookEdit": "Edit", "Read": "Read",
	"Bash": "Bash", "Glob": "Glob", "Grep": "Grep", "WebFetch": "Fetch", "WebSearch": "Search",
	// gemini
	"write_file": "Write", "replace": "Edit", "read_file": "Read", "read_many_files": "Read",
	"run_shell_command": "Bash", "glob": "Glob", "search_file_content": "Grep", "grep_search": "Grep",
	"list_directory": "List", "web_fetch": "Fetch", "google_web_search": "Search",
}

// toolNote is the note for a tool call: the verb and the one argument that
// says most ("Write calc/format.go", "Bash go test ./..."), with paths made
// relative to the working directory dir.
func toolNote(name string, input map[string]any, dir string) Note {
	verb := toolVerbs[name]
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
	return Note{Tool: verb, Text: text}
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
func textNotes(msg string) []Note {
	var out []Note
	for _, l := range strings.Split(msg, "\n") {
		if l = cleanLine(l); l != "" {
			out = append(out, Note{Text: l})
		}
	}
	return out
}
