package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/shell"
)

// codexHandler speaks the OpenAI Responses API as codex 0.169.0 calls it
// through a custom provider with wire_api = "responses": POST /v1/responses
// with "stream": true, answered with response.created,
// response.output_item.done and response.completed events.
type codexHandler struct{}

func (codexHandler) isModelRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/v1/responses"
}

func (codexHandler) serveOther(w http.ResponseWriter, r *http.Request, _ []byte) {
	if r.URL.Path == "/v1/models" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[]}`)
		return
	}
	http.NotFound(w, r)
}

func (codexHandler) serveReply(w http.ResponseWriter, _ []byte, reply Reply, idx int) {
	respID := fmt.Sprintf("resp_mock_%d", idx+1)
	startSSE(w)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID}})
	var item map[string]any
	if reply.isWrite() {
		// codex has no file-writing tool of its own: it writes with a shell command.
		cmd := shell.Join("mkdir", "-p", filepath.Dir(reply.Path)) + " && printf '%s' " + shell.Quote(reply.Content) + " > " + shell.Quote(reply.Path)
		args, _ := json.Marshal(map[string]any{"cmd": cmd})
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_mock_%d", idx+1), "call_id": fmt.Sprintf("call_mock_%d", idx+1),
			"name": "exec_command", "arguments": string(args)}
	} else {
		item = map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_mock_%d", idx+1),
			"content": []any{map[string]any{"type": "output_text", "text": reply.Text}}}
		sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "item": item})
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "delta": reply.Text})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": respID,
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 40},
			"output_tokens": 20, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 120},
	}})
}

// codexFailures are the OpenAI API's errors, as its documentation gives them.
var codexFailures = map[Failure]struct {
	status           int
	kind, code, text string
}{
	Unauthorized:  {401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: dummy. You can find your API key in your account settings."},
	Forbidden:     {403, "invalid_request_error", "model_not_found", "Project does not have access to model gpt-5.5."},
	RateLimited:   {429, "tokens", "rate_limit_exceeded", "Rate limit reached for gpt-5.5 on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 1s."},
	Overloaded:    {503, "server_error", "server_is_overloaded", "The server is overloaded or not ready yet."},
	PromptTooLong: {400, "invalid_request_error", "context_length_exceeded", "Your input exceeds the context window of this model. Please adjust your input and try again."},
	UsageLimit:    {429, "usage_limit_reached", "usage_limit_reached", "The usage limit has been reached"},
	WeeklyLimit:   {429, "usage_limit_reached", "usage_limit_reached", "The usage limit has been reached"},
	HighDemand:    {500, "server_error", "internal_server_error", "The server had an error while processing your request."},
}

func (codexHandler) failure(r Reply) failureResponse {
	f := r.Failure
	e := codexFailures[f]
	body := map[string]any{"message": e.text, "type": e.kind, "param": nil, "code": e.code}
	if f.isUsage() {
		// ChatGPT's usage limit, as codex reads it: the plan and when the
		// window resets, as an epoch and in seconds from now.
		body["plan_type"] = "plus"
		at := r.resetsAt()
		body["resets_in_seconds"] = max(int(time.Until(at).Seconds()), 0)
		if r.ResetsAt.IsZero() {
			// The fixtures' reset: 4 days 3 hours 2 minutes from now.
			body["resets_in_seconds"] = 4*86400 + 3*3600 + 2*60
		}
		if !r.NoResetsAt {
			body["resets_at"] = at.Unix()
		}
	}
	return failureResponse{status: e.status, body: map[string]any{"error": body}}
}
