package agent

import (
	"testing"

	"github.com/stretchr/testify/require"
)

const fullResult = `{
  "phase_id": "2a",
  "status": "complete",
  "tasks": {"total": 5, "completed": 4},
  "commit_message": "feat(api): add login",
  "files": {"created": ["a.go"], "modified": ["b.go"], "deleted": ["c.go"]},
  "error": {"type": "task_incomplete", "message": "one task left"}
}`

func TestParseResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		output  string
		want    *Result // nil: only check the error
		wantErr string
		noRes   bool
	}{
		{
			name:   "fenced",
			output: "Working...\nDone.\n\n```json\n" + fullResult + "\n```\n",
			want: &Result{PhaseID: "2a", Status: "complete", Tasks: ResultTasks{Total: 5, Completed: 4},
				CommitMessage: "feat(api): add login",
				Files:         ResultFiles{Created: []string{"a.go"}, Modified: []string{"b.go"}, Deleted: []string{"c.go"}},
				Error:         &ResultError{Type: "task_incomplete", Message: "one task left"}},
		},
		{
			name:   "bare at the end, with trailing blank lines",
			output: "All done.\n" + `{"phase_id": "1", "status": "failed", "error": {"type": "agent_error", "message": "x"}}` + "\n\n  \n",
			want:   &Result{PhaseID: "1", Status: "failed", Error: &ResultError{Type: "agent_error", Message: "x"}},
		},
		{
			name:   "bare on the same line as text",
			output: `Result: {"phase_id": "1", "status": "complete"}`,
			want:   &Result{PhaseID: "1", Status: "complete"},
		},
		{
			name:   "bare pretty-printed with nested objects and braces in strings",
			output: "log {not json}\n{\n  \"status\": \"complete\",\n  \"commit_message\": \"fix: handle } and { in input\",\n  \"tasks\": {\"total\": 2, \"completed\": 2},\n  \"files\": {\"created\": [], \"modified\": [\"x.go\"]}\n}\n",
			want:   &Result{Status: "complete", CommitMessage: "fix: handle } and { in input", Tasks: ResultTasks{2, 2}, Files: ResultFiles{Created: []string{}, Modified: []string{"x.go"}}},
		},
		{
			name:   "several blocks: the last wins",
			output: "```json\n{\"phase_id\": \"1\", \"status\": \"failed\"}\n```\nretrying\n```json\n{\"phase_id\": \"1\", \"status\": \"complete\"}\n```\n",
			want:   &Result{PhaseID: "1", Status: "complete"},
		},
		{
			name:   "a bare object after the last block wins",
			output: "```json\n{\"status\": \"failed\"}\n```\n{\"status\": \"complete\"}\n",
			want:   &Result{Status: "complete"},
		},
		{
			name:   "a later json block that is not a result is passed over",
			output: "```json\n{\"status\": \"complete\"}\n```\nthe config I wrote:\n```json\n{\"compilerOptions\": {\"strict\": true}}\n```\n",
			want:   &Result{Status: "complete"},
		},
		{
			name:   "unlabelled fence holding a result",
			output: "```\n{\"status\": \"complete\", \"phase_id\": \"3\"}\n```\n",
			want:   &Result{PhaseID: "3", Status: "complete"},
		},
		{
			name:   "tilde fence, upper-case label, indented",
			output: "  ~~~JSON\n  {\"status\": \"Complete\"}\n  ~~~\n",
			want:   &Result{Status: "complete"},
		},
		{
			name:   "a json block inside a longer fence is not a block of its own",
			output: "````markdown\n```json\n{\"status\": \"complete\"}\n```\n````\n",
			noRes:  true,
		},
		{name: "none", output: "I changed three files.\nBye.\n", noRes: true},
		{name: "empty", output: "", noRes: true},
		{name: "a provider's error object is not a result", output: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, noRes: true},
		{name: "a code block that is not json", output: "```go\nfunc main() {}\n```\n", noRes: true},
		{
			name:    "garbled fenced block",
			output:  "```json\n{\n  \"status\": \"complete\",\n  \"tasks\": {\"total\": 3,,}\n}\n```\n",
			wantErr: "line 3 of the block",
		},
		{name: "garbled block is named by its line", output: "a\nb\n```json\n{status: complete}\n```\n", wantErr: "json block at line 3"},
		{name: "wrong type", output: "```json\n{\"status\": \"complete\", \"tasks\": {\"total\": \"five\"}}\n```\n", wantErr: "tasks.total must be a number, not a JSON string"},
		{name: "bad status", output: "```json\n{\"status\": \"done\"}\n```\n", wantErr: `status must be "complete" or "failed", not "done"`},
		{name: "bare bad status", output: `{"status": "success"}`, wantErr: "not \"success\""},
		{name: "negative tasks", output: "```json\n{\"status\": \"complete\", \"tasks\": {\"total\": -1}}\n```\n", wantErr: "negative"},
		{name: "empty block", output: "```json\n```\n", wantErr: "is empty"},
		{name: "array block", output: "```json\n[1, 2\n```\n", wantErr: "not a JSON object"},
		{name: "unclosed block that is valid", output: "```json\n{\"status\": \"complete\"}\n", want: &Result{Status: "complete"}},
		{name: "unclosed garbled block", output: "```json\n{\"status\": \"compl", wantErr: "never closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseResult(tt.output)
			switch {
			case tt.noRes:
				require.ErrorIs(t, err, ErrNoResult)
			case tt.wantErr != "":
				require.ErrorContains(t, err, tt.wantErr)
				require.NotErrorIs(t, err, ErrNoResult)
			default:
				require.NoError(t, err)
				require.Equal(t, tt.want, got)
			}
		})
	}
}

func TestParseResultLongOutputIsFast(t *testing.T) {
	t.Parallel()
	// Many braces before the result must not make the bare-object search
	// quadratic.
	var out []byte
	for range 5000 {
		out = append(out, `{"level":"info","msg":"step"} {x} `...)
		out = append(out, '\n')
	}
	out = append(out, `{"status": "complete"}`...)
	r, err := ParseResult(string(out))
	require.NoError(t, err)
	require.Equal(t, "complete", r.Status)
}
