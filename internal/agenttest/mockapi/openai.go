package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// OpenAI is the OpenAI Chat Completions API, as the CLIs that take an
// OpenAI-compatible base URL call it (qwen, opencode, pi).
const OpenAI API = "openai"

// openaiHandler speaks the Chat Completions API: POST
// .../chat/completions, streamed (chat.completion.chunk events, then
// [DONE]) or not. A write is a call of the file-writing tool the request
// offers (qwen write_file, opencode and pi write), with the path argument
// its schema names.
type openaiHandler struct{}

func (openaiHandler) isModelRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions")
}

// sideRequest is a request a CLI makes beside the model's turn: opencode's
// title for the session, qwen's memory extraction after its answer. It
// takes no scripted reply.
func (openaiHandler) sideRequest(body []byte) bool {
	for _, s := range []string{"You are a title generator", "managed memory extraction subagent"} {
		if strings.Contains(string(body), s) {
			return true
		}
	}
	return false
}

func (openaiHandler) serveOther(w http.ResponseWriter, r *http.Request, body []byte) {
	if strings.HasSuffix(r.URL.Path, "/chat/completions") {
		openaiHandler{}.serveReply(w, body, Text("Hello"), 0)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/models") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"id":"mock-model","object":"model","owned_by":"mock"}]}`)
		return
	}
	http.NotFound(w, r)
}

// openaiRequest is what the handler reads of a request.
type openaiRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]any `json:"properties"`
			} `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// openaiCwd finds the working directory the CLIs state in their system
// prompts.
var openaiCwd = lazyre.New(`(?i)(?:working directory|working in the directory|current directory|cwd)[^/\n]{0,40}(/[^\s"'<>\x60\\]+)`)

// writeCall is the tool call that writes reply's file with the request's
// own write tool.
func (q openaiRequest) writeCall(body []byte, reply Reply) (name, args string) {
	name = "write_file"
	pathKey, contentKey := "file_path", "content"
	// qwen write_file, opencode and pi write, copilot create.
	for _, want := range []string{"write_file", "write", "Write", "create_file", "create"} {
		for _, t := range q.Tools {
			if t.Function.Name != want {
				continue
			}
			name = want
			for _, k := range []string{"file_path", "filePath", "path", "absolute_path"} {
				if _, ok := t.Function.Parameters.Properties[k]; ok {
					pathKey = k
					break
				}
			}
			if _, ok := t.Function.Parameters.Properties["file_text"]; ok {
				contentKey = "file_text"
			}
			goto found
		}
	}
found:
	path := reply.Path
	if !filepath.IsAbs(path) {
		// The first directory so named that exists: prompts hold example
		// paths too.
		for _, m := range openaiCwd().FindAllSubmatch(body, -1) {
			dir := strings.TrimRight(string(m[1]), ".,;:)")
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				path = filepath.Join(dir, path)
				break
			}
		}
	}
	b, _ := json.Marshal(map[string]string{pathKey: path, contentKey: reply.Content})
	return name, string(b)
}

func (openaiHandler) serveReply(w http.ResponseWriter, body []byte, reply Reply, idx int) {
	var q openaiRequest
	_ = json.Unmarshal(body, &q)
	id := fmt.Sprintf("chatcmpl-mock-%d", idx+1)
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
	var message map[string]any
	finish := "stop"
	if reply.isWrite() {
		name, args := q.writeCall(body, reply)
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": fmt.Sprintf("call_mock_%d", idx+1), "type": "function",
			"function": map[string]any{"name": name, "arguments": args}}}}
		finish = "tool_calls"
	} else {
		message = map[string]any{"role": "assistant", "content": reply.Text}
	}
	if !q.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": 1800000000, "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	startSSE(w)
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1800000000, "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		sse(w, "", c)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	if reply.isWrite() {
		chunk(map[string]any{"tool_calls": message["tool_calls"]}, nil, nil)
	} else {
		half := len(reply.Text) / 2
		for half > 0 && !utf8Start(reply.Text, half) {
			half--
		}
		for _, part := range []string{reply.Text[:half], reply.Text[half:]} {
			chunk(map[string]any{"content": part}, nil, nil)
		}
	}
	chunk(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// openaiFailures are the OpenAI API's errors, as its documentation gives
// them, for a chat model.
var openaiFailures = map[Failure]struct {
	status           int
	kind, code, text string
}{
	Unauthorized:  {401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: dummy. You can find your API key in your account settings."},
	Forbidden:     {403, "invalid_request_error", "model_not_found", "The model `mock-model` does not exist or you do not have access to it."},
	RateLimited:   {429, "requests", "rate_limit_exceeded", "Rate limit reached for mock-model on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s."},
	Overloaded:    {503, "server_error", "server_is_overloaded", "The server is overloaded or not ready yet."},
	PromptTooLong: {400, "invalid_request_error", "context_length_exceeded", "This model's maximum context length is 128000 tokens. However, your messages resulted in 212345 tokens. Please reduce the length of the messages."},
	UsageLimit:    {429, "insufficient_quota", "insufficient_quota", "You exceeded your current quota, please check your plan and billing details."},
	HighDemand:    {500, "server_error", "internal_server_error", "The server had an error while processing your request."},
}

func (openaiHandler) failure(r Reply) failureResponse {
	e := openaiFailures[r.Failure]
	return failureResponse{status: e.status, body: map[string]any{"error": map[string]any{"message": e.text, "type": e.kind, "param": nil, "code": e.code}}}
}
