package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// geminiHandler speaks the Gemini API as gemini 0.61.0 calls it with an API
// key and GOOGLE_GEMINI_BASE_URL: POST
// /v1beta/models/<model>:streamGenerateContent?alt=sse for the chat, answered
// with data-only events of GenerateContentResponse; the CLI's side calls
// (:generateContent with a JSON schema, for its model router and checks, and
// :countTokens) get a fixed answer and use no scripted reply.
type geminiHandler struct{}

func (geminiHandler) isModelRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
}

func (geminiHandler) serveOther(w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		fmt.Fprint(w, `{"totalTokens":100}`)
	case strings.HasSuffix(r.URL.Path, ":generateContent"):
		text, _ := json.Marshal(schemaAnswer(body))
		_ = json.NewEncoder(w).Encode(map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": string(text)}}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		})
	default:
		http.NotFound(w, r)
	}
}

// schemaAnswer fills the JSON schema a side call asks for: "user" speaks next
// (the turn is over), the task is simple (the router picks the flash model),
// and any other field gets a placeholder of its type.
func schemaAnswer(body []byte) map[string]any {
	var req struct {
		GenerationConfig struct {
			Schema struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			} `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	_ = json.Unmarshal(body, &req)
	out := map[string]any{}
	for name, p := range req.GenerationConfig.Schema.Properties {
		switch {
		case name == "next_speaker":
			out[name] = "user"
		case strings.EqualFold(p.Type, "integer"), strings.EqualFold(p.Type, "number"):
			out[name] = 10
		case strings.EqualFold(p.Type, "boolean"):
			out[name] = false
		default:
			out[name] = "mock"
		}
	}
	return out
}

func (geminiHandler) serveReply(w http.ResponseWriter, _ []byte, reply Reply, _ int) {
	var part map[string]any
	if reply.isWrite() {
		part = map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"file_path": reply.Path, "content": reply.Content}}}
	} else {
		part = map[string]any{"text": reply.Text}
	}
	startSSE(w)
	sse(w, "", map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120, "cachedContentTokenCount": 40},
		"modelVersion":  "gemini-mock",
	})
}

// geminiFailures are the Gemini API's errors (google.rpc.Status in an "error" object).
var geminiFailures = map[Failure]struct {
	status     int
	code, text string
}{
	Unauthorized:  {401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key."},
	Forbidden:     {403, "PERMISSION_DENIED", "Permission denied: Consumer 'api_key:dummy' has been suspended."},
	RateLimited:   {429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details."},
	Overloaded:    {503, "UNAVAILABLE", "The model is overloaded. Please try again later."},
	PromptTooLong: {400, "INVALID_ARGUMENT", "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."},
}

func (geminiHandler) failure(r Reply) failureResponse {
	f := r.Failure
	e := geminiFailures[f]
	body := map[string]any{"code": e.status, "message": e.text, "status": e.code}
	if f == RateLimited {
		body["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}}
	}
	return failureResponse{status: e.status, body: map[string]any{"error": body}}
}
