package adapters

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

// client is what an ACP agent may ask of autobuild: the session's updates,
// permissions, and files inside the worktree. Terminals are not offered
// (the agent runs its commands itself, in the worktree).
type client struct{ s *ACPSession }

var _ sdk.Client = client{}

// SessionUpdate turns the agent's updates into notes: a tool call (once
// per id: some agents send two), a plan, lines of its message; it keeps
// the message after the last tool call as the final one, and usage.
func (c client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	u := n.Update
	if u.ToolCall == nil && u.ToolCallUpdate == nil {
		s.flushTool()
	}
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil && t.Text != "" {
			s.message(t.Text)
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		s.toolCall(tc.ToolCallId, tc.Kind, tc.Title, tc.Locations, tc.RawInput)
	case u.ToolCallUpdate != nil:
		// gemini sends no tool_call, only updates: the first one with a
		// title announces the call.
		tc := u.ToolCallUpdate
		if s.pending != nil && s.pending.id == tc.ToolCallId && tc.Title == nil {
			title := s.pending.title
			tc.Title = &title
		}
		if !s.tools[tc.ToolCallId] && tc.Title != nil && *tc.Title != "" {
			var kind sdk.ToolKind
			if tc.Kind != nil {
				kind = *tc.Kind
			}
			s.toolCall(tc.ToolCallId, kind, *tc.Title, tc.Locations, tc.RawInput)
		}
	case u.Plan != nil:
		s.flushLine()
		s.cfg.Show(planNote(u.Plan.Entries))
	case u.UsageUpdate != nil:
		if c := u.UsageUpdate.Cost; c != nil && strings.EqualFold(c.Currency, "USD") && c.Amount > 0 {
			if s.usage == nil {
				s.usage = &usageAcc{}
			}
			s.usage.cost = c.Amount
		}
	}
	return nil
}

// message takes a chunk of the agent's message: whole lines are shown as
// they come, and the text is the final message until a tool call follows.
func (s *ACPSession) message(text string) {
	if s.afterTool {
		s.final, s.afterTool = "", false
	}
	s.final += text
	s.line += text
	for {
		i := strings.IndexByte(s.line, '\n')
		if i < 0 {
			break
		}
		for _, n := range textNotes(s.line[:i]) {
			s.cfg.Show(n)
		}
		s.line = s.line[i+1:]
	}
}

// flushLine shows the unfinished line of the agent's message.
func (s *ACPSession) flushLine() {
	if s.line != "" {
		for _, n := range textNotes(s.line) {
			s.cfg.Show(n)
		}
		s.line = ""
	}
}

// acpToolVerbs are the verbs shown for ACP's tool kinds.
var acpToolVerbs = map[sdk.ToolKind]string{
	sdk.ToolKindRead: "Read", sdk.ToolKindEdit: "Edit", sdk.ToolKindDelete: "Delete", sdk.ToolKindMove: "Move",
	sdk.ToolKindSearch: "Grep", sdk.ToolKindExecute: "Bash", sdk.ToolKindThink: "Think", sdk.ToolKindFetch: "Fetch",
}

// pendingTool is a tool call announced without its path or input
// (claude-code-acp sends its tool_call twice, the first one empty): it is
// shown when its id comes again with more, or before anything else.
type pendingTool struct {
	id    sdk.ToolCallId
	kind  sdk.ToolKind
	title string
}

// toolCall shows a tool call once per id: the verb of its kind and its
// path, command or title.
func (s *ACPSession) toolCall(id sdk.ToolCallId, kind sdk.ToolKind, title string, locs []sdk.ToolCallLocation, raw any) {
	if s.tools[id] {
		return
	}
	input, _ := raw.(map[string]any)
	if len(locs) == 0 && len(input) == 0 {
		if s.pending == nil || s.pending.id != id {
			s.flushTool()
			s.pending = &pendingTool{id: id, kind: kind, title: title}
			return
		}
	}
	if s.pending != nil && s.pending.id != id {
		s.flushTool()
	}
	s.pending = nil
	s.showTool(id, kind, title, locs, input)
}

// flushTool shows a pending tool call with what is known of it.
func (s *ACPSession) flushTool() {
	if p := s.pending; p != nil {
		s.pending = nil
		s.showTool(p.id, p.kind, p.title, nil, nil)
	}
}

func (s *ACPSession) showTool(id sdk.ToolCallId, kind sdk.ToolKind, title string, locs []sdk.ToolCallLocation, input map[string]any) {
	s.tools[id] = true
	s.flushLine()
	s.afterTool = true
	verb := acpToolVerbs[kind]
	if verb == "" {
		verb = "Tool"
	}
	arg := ""
	if len(locs) > 0 && locs[0].Path != "" {
		arg = relPath(locs[0].Path, s.cfg.Dir)
	} else if len(input) > 0 {
		n := toolNote("", input, s.cfg.Dir)
		arg = strings.TrimSpace(n.Text)
	}
	if arg == "" || (kind == sdk.ToolKindExecute && title != "") {
		arg = title
	}
	if kind == sdk.ToolKindEdit && strings.HasPrefix(strings.ToLower(title), "write") {
		verb = "Write"
	}
	text := verb
	if arg = cleanLine(firstLine(arg)); arg != "" && arg != verb {
		text += " " + arg
	}
	s.cfg.Show(agent.Note{Tool: verb, Text: text})
}

// planNote is a plan update as one line: how many entries are done and
// the one in progress.
func planNote(entries []sdk.PlanEntry) agent.Note {
	done, current := 0, ""
	for _, e := range entries {
		switch e.Status {
		case sdk.PlanEntryStatusCompleted:
			done++
		case sdk.PlanEntryStatusInProgress:
			if current == "" {
				current = e.Content
			}
		}
	}
	text := fmt.Sprintf("Plan %d/%d done", done, len(entries))
	if current = cleanLine(firstLine(current)); current != "" {
		text += ": " + current
	}
	return agent.Note{Tool: "Plan", Text: text}
}

// RequestPermission allows a tool call whose paths are all inside the
// worktree and refuses one that names a path outside it (logged). A call
// that names no path (a shell command) is allowed: it runs in the
// worktree.
func (c client) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	s := c.s
	tc := p.ToolCall
	var outside []string
	for _, path := range permissionPaths(tc) {
		if !s.inside(path) {
			outside = append(outside, path)
		}
	}
	title := ""
	if tc.Title != nil {
		title = *tc.Title
	}
	s.mu.Lock()
	canceled := s.canceled
	s.mu.Unlock()
	if canceled {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	if len(outside) > 0 {
		msg := fmt.Sprintf("refused %s: %s is outside the phase's worktree", cleanLine(firstLine(title)), cleanLine(strings.Join(outside, ", ")))
		s.mu.Lock()
		s.refused = append(s.refused, msg)
		s.flushLine()
		s.cfg.Show(agent.Note{Text: "autobuild " + msg})
		s.mu.Unlock()
		s.cfg.Log(msg)
		if id, ok := pickOption(p.Options, sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways); ok {
			return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(id)}, nil
		}
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	if id, ok := pickOption(p.Options, sdk.PermissionOptionKindAllowOnce, sdk.PermissionOptionKindAllowAlways); ok {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(id)}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
}

// pickOption returns the first option of the first kind that has one.
func pickOption(opts []sdk.PermissionOption, kinds ...sdk.PermissionOptionKind) (sdk.PermissionOptionId, bool) {
	for _, k := range kinds {
		for _, o := range opts {
			if o.Kind == k {
				return o.OptionId, true
			}
		}
	}
	return "", false
}

// permissionPaths are the paths a tool call names, wherever the agent puts
// them: its locations, its diffs, and its raw input (claude-code-acp
// file_path, opencode filepath, others path).
func permissionPaths(tc sdk.ToolCallUpdate) []string {
	var out []string
	for _, l := range tc.Locations {
		out = append(out, l.Path)
	}
	for _, c := range tc.Content {
		if c.Diff != nil {
			out = append(out, c.Diff.Path)
		}
	}
	if in, ok := tc.RawInput.(map[string]any); ok {
		for _, k := range []string{"file_path", "filepath", "filePath", "path", "absolute_path", "notebook_path", "destination", "source"} {
			if v, ok := in[k].(string); ok && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// inside reports whether path is in the worktree: a relative path is taken
// from it, and the symbolic links of the part that exists are followed (a
// link inside that points outside is outside).
func (s *ACPSession) inside(path string) bool {
	if path == "" {
		return true
	}
	p := resolveExisting(filepath.Clean(s.abs(path)))
	return p == s.root || strings.HasPrefix(p, s.root+string(filepath.Separator))
}

// resolveExisting follows the symbolic links of the longest part of path
// that exists, and keeps the rest as it is.
func resolveExisting(path string) string {
	rest := ""
	p := path
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// ReadTextFile serves a file inside the worktree. A missing one reads as
// empty: gemini reads a file before it writes it, and cannot create one
// otherwise.
func (c client) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	s := c.s
	if !s.inside(p.Path) {
		msg := fmt.Sprintf("refused to read %s: it is outside the phase's worktree", cleanLine(p.Path))
		s.cfg.Log(msg)
		return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": msg})
	}
	data, err := os.ReadFile(s.abs(p.Path))
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.ReadTextFileResponse{Content: ""}, nil
	}
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	text := string(data)
	if p.Line != nil || p.Limit != nil {
		lines := strings.SplitAfter(text, "\n")
		from := 0
		if p.Line != nil && *p.Line > 1 {
			from = min(*p.Line-1, len(lines))
		}
		to := len(lines)
		if p.Limit != nil && *p.Limit >= 0 {
			to = min(from+*p.Limit, len(lines))
		}
		text = strings.Join(lines[from:to], "")
	}
	return sdk.ReadTextFileResponse{Content: text}, nil
}

// WriteTextFile writes a file inside the worktree, creating its folders;
// a path outside it is refused and logged.
func (c client) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	s := c.s
	if !s.inside(p.Path) {
		msg := fmt.Sprintf("refused to write %s: it is outside the phase's worktree", cleanLine(p.Path))
		s.mu.Lock()
		s.refused = append(s.refused, msg)
		s.flushLine()
		s.cfg.Show(agent.Note{Text: "autobuild " + msg})
		s.mu.Unlock()
		s.cfg.Log(msg)
		return sdk.WriteTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": msg})
	}
	path := s.abs(p.Path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.WriteFile(path, []byte(p.Content), mode); err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.WriteTextFileResponse{}, nil
}

func (s *ACPSession) abs(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(s.cfg.Dir, path)
}

func (client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}

func (client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}

func (client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}

func (client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}

func (client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}
