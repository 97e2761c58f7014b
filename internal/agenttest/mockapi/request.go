package mockapi

import (
	"bytes"
	"encoding/json"
)

// Session is the CLI's session id as its request carries it: claude's
// X-Claude-Code-Session-Id header, codex's session-id header. gemini sends
// none ("").
func (r Request) Session() string {
	switch r.API {
	case Claude:
		return r.Header.Get("X-Claude-Code-Session-Id")
	case Codex:
		return r.Header.Get("Session-Id")
	}
	return ""
}

// ToolResult reports whether the request carries a tool's result back to
// the model (claude tool_result, codex function_call_output, gemini
// functionResponse): the CLI ran the tool and continued the conversation.
func (r Request) ToolResult() bool {
	key := map[API]string{Claude: `"tool_result"`, Codex: `"function_call_output"`, Gemini: `"functionResponse"`}[r.API]
	return key != "" && bytes.Contains(r.Body, []byte(key))
}

// JSON decodes the request body into v.
func (r Request) JSON(v any) error { return json.Unmarshal(r.Body, v) }
