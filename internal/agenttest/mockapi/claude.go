package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// claudeHandler speaks the Anthropic Messages API as claude 2.1.330 calls it:
// POST /v1/messages?beta=true with "stream": true, answered with the
// message_start, content_block_*, message_delta, message_stop events.
type claudeHandler struct{}

func (claudeHandler) isModelRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/v1/messages"
}

func (claudeHandler) serveOther(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.URL.Path == "/v1/messages" {
		// A side request (sideRequest) gets a short answer of its own.
		claudeHandler{}.serveReply(w, body, Text("hello.txt"), 0)
		return
	}
	if r.URL.Path == "/v1/messages/count_tokens" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"input_tokens":100}`)
		return
	}
	http.NotFound(w, r)
}

// claudeCwd finds the working directory claude states in its system prompt.
var claudeCwd = lazyre.New(`Primary working directory: ([^\s\\"]+)`)

func (claudeHandler) serveReply(w http.ResponseWriter, body []byte, reply Reply, idx int) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)
	id := fmt.Sprintf("msg_mock_%d", idx+1)
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	stop := "end_turn"
	if reply.isWrite() {
		path := reply.Path
		if !filepath.IsAbs(path) {
			if m := claudeCwd().FindSubmatch(body); m != nil {
				path = filepath.Join(string(m[1]), path)
			}
		}
		input, _ := json.Marshal(map[string]string{"file_path": path, "content": reply.Content})
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{
			"type": "tool_use", "id": fmt.Sprintf("toolu_mock_%d", idx+1), "name": claudeWriteTool(body), "input": map[string]any{},
		}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{
			"type": "input_json_delta", "partial_json": string(input),
		}})
		stop = "tool_use"
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		// Two deltas, as a real stream splits its text.
		half := len(reply.Text) / 2
		for half > 0 && !utf8Start(reply.Text, half) {
			half--
		}
		for _, part := range []string{reply.Text[:half], reply.Text[half:]} {
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": part}})
		}
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 20}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// sideRequest is claude-code-acp's request at the start of a session, with
// no tools, for the repository's most changed files: not the model's turn,
// so it takes no scripted reply.
func (claudeHandler) sideRequest(body []byte) bool {
	return strings.Contains(string(body), `"tools":[]`) && strings.Contains(string(body), "analyzing git history")
}

// claudeWriteTool is the write tool the request offers: claude-code-acp
// replaces claude's Write with its client's mcp__acp__Write.
func claudeWriteTool(body []byte) string {
	if strings.Contains(string(body), `"mcp__acp__Write"`) {
		return "mcp__acp__Write"
	}
	return "Write"
}

func utf8Start(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }

// claudeFailures are the Messages API's errors, as its documentation gives them.
var claudeFailures = map[Failure]struct {
	status     int
	kind, text string
}{
	Unauthorized:  {401, "authentication_error", "invalid x-api-key"},
	Forbidden:     {403, "permission_error", "Your API key does not have permission to use the specified resource."},
	RateLimited:   {429, "rate_limit_error", "This request would exceed your organization's rate limit of 30,000 input tokens per minute."},
	Overloaded:    {529, "overloaded_error", "Overloaded"},
	PromptTooLong: {400, "invalid_request_error", "prompt is too long: 212345 tokens > 200000 maximum"},
	UsageLimit:    {429, "rate_limit_error", subscriptionLimitText},
	WeeklyLimit:   {429, "rate_limit_error", subscriptionLimitText},
	OpusLimit:     {429, "rate_limit_error", subscriptionLimitText},
}

// subscriptionLimitText is the error message of a subscription's 429: the
// reset is in the headers only.
const subscriptionLimitText = "This request would exceed your account's rate limit. Please try again later."

// claudeClaims are the unified rate limit's claims ("representative
// claim") of the usage limits, and the short names of their own headers.
var claudeClaims = map[Failure]struct{ claim, short string }{
	UsageLimit:  {"five_hour", "5h"},
	WeeklyLimit: {"seven_day", "7d"},
	OpusLimit:   {"seven_day_opus", "7d_opus"},
}

func (claudeHandler) failure(r Reply) failureResponse {
	f := r.Failure
	e := claudeFailures[f]
	resp := failureResponse{status: e.status, body: map[string]any{
		"type":       "error",
		"error":      map[string]any{"type": e.kind, "message": e.text},
		"request_id": "req_mock_" + strings.ReplaceAll(string(f), "_", ""),
	}}
	if c, ok := claudeClaims[f]; ok {
		// A subscription's usage limit, as the API answers a client logged
		// in with OAuth: the unified limit is rejected, its claim names the
		// window, and the reset is an epoch in seconds.
		reset := strconv.FormatInt(r.resetsAt().Unix(), 10)
		resp.header = map[string]string{
			"anthropic-ratelimit-unified-status":                      "rejected",
			"anthropic-ratelimit-unified-reset":                       reset,
			"anthropic-ratelimit-unified-representative-claim":        c.claim,
			"anthropic-ratelimit-unified-" + c.short + "-status":      "rejected",
			"anthropic-ratelimit-unified-" + c.short + "-reset":       reset,
			"anthropic-ratelimit-unified-" + c.short + "-utilization": "1.0",
		}
	}
	return resp
}
