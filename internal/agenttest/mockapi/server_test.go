package mockapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// chatPath is each API's chat endpoint as the CLI calls it.
var chatPath = map[API]string{
	Claude: "/v1/messages?beta=true",
	Codex:  "/v1/responses",
	Gemini: "/v1beta/models/gemini-mock:streamGenerateContent?alt=sse",
}

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func TestServerIsOnLoopback(t *testing.T) {
	s := New(t, Claude)
	require.True(t, strings.HasPrefix(s.URL(), "http://127.0.0.1:"), s.URL())
}

// Each reply is given once, in order; the requests are logged with the
// reply they got, and a request past the script gets a 500 that says so.
func TestRepliesInOrderAndLogged(t *testing.T) {
	for _, api := range APIs() {
		t.Run(string(api), func(t *testing.T) {
			s := New(t, api, WriteFile("/w/hello.txt", "hi\n"), Text("all done"))
			resp, body := post(t, s.URL()+chatPath[api], `{"stream":true}`)
			require.Equal(t, 200, resp.StatusCode)
			require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
			tool := map[API]string{Claude: `"name":"Write"`, Codex: `"name":"exec_command"`, Gemini: `"name":"write_file"`}[api]
			require.Contains(t, body, tool)
			require.Contains(t, body, "hello.txt")

			_, body = post(t, s.URL()+chatPath[api], `{"stream":true}`)
			require.Contains(t, body, "all ") // claude's text comes in two deltas
			require.Contains(t, body, "done")
			end := map[API]string{Claude: "event: message_stop", Codex: "event: response.completed", Gemini: `"finishReason":"STOP"`}[api]
			require.Contains(t, body, end)

			resp, body = post(t, s.URL()+chatPath[api], `{}`)
			require.Equal(t, 500, resp.StatusCode)
			require.Contains(t, body, "the script has only 2 replies")

			reqs := s.ModelRequests()
			require.Len(t, reqs, 3)
			for i, r := range reqs {
				require.Equal(t, i, r.Reply)
				require.Equal(t, http.MethodPost, r.Method)
			}
			require.Equal(t, 2, s.Used())
		})
	}
}

// claude's Write wants an absolute path: a relative one is taken from the
// working directory claude states in its system prompt.
func TestClaudeWritePathFromItsWorkingDirectory(t *testing.T) {
	s := New(t, Claude, WriteFile("sub/hello.txt", "hi"))
	_, body := post(t, s.URL()+chatPath[Claude], `{"system":[{"text":" - Primary working directory: /tmp/work\n"}],"stream":true}`)
	require.Contains(t, body, `\"file_path\":\"/tmp/work/sub/hello.txt\"`)
}

// Every failure answers with the API's status and error body.
func TestFailuresInEachAPIsShape(t *testing.T) {
	status := map[API]map[Failure]int{
		Claude: {Unauthorized: 401, Forbidden: 403, RateLimited: 429, Overloaded: 529, PromptTooLong: 400},
		Codex:  {Unauthorized: 401, Forbidden: 403, RateLimited: 429, Overloaded: 503, PromptTooLong: 400},
		Gemini: {Unauthorized: 401, Forbidden: 403, RateLimited: 429, Overloaded: 503, PromptTooLong: 400},
	}
	for _, api := range APIs() {
		for _, f := range Failures() {
			t.Run(string(api)+"/"+string(f), func(t *testing.T) {
				s := New(t, api, Fail(f))
				resp, body := post(t, s.URL()+chatPath[api], `{}`)
				require.Equal(t, status[api][f], resp.StatusCode)
				var v struct {
					Type  string `json:"type"`
					Error struct {
						Type, Status, Message string
						Code                  any
					} `json:"error"`
				}
				require.NoError(t, json.Unmarshal([]byte(body), &v), body)
				require.NotEmpty(t, v.Error.Message)
				switch api {
				case Claude:
					require.Equal(t, "error", v.Type)
					require.NotEmpty(t, v.Error.Type)
				case Codex:
					require.NotEmpty(t, v.Error.Code)
				case Gemini:
					require.NotEmpty(t, v.Error.Status)
					require.EqualValues(t, status[api][f], v.Error.Code)
				}
				if f == RateLimited {
					require.Equal(t, "1", resp.Header.Get("Retry-After"))
				}
			})
		}
	}
}

// gemini's side calls (its model router, its checks) are answered without
// using the script, in the JSON shape their schema asks for.
func TestGeminiSideCallsUseNoReply(t *testing.T) {
	s := New(t, Gemini, Text("x"))
	resp, body := post(t, s.URL()+"/v1beta/models/flash:generateContent",
		`{"generationConfig":{"responseJsonSchema":{"properties":{"complexity_score":{"type":"INTEGER"},"next_speaker":{"type":"STRING"}}}}}`)
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, body, `\"complexity_score\":10`)
	require.Contains(t, body, `\"next_speaker\":\"user\"`)
	require.Equal(t, 0, s.Used())
	require.Len(t, s.Requests(), 1)
	require.Equal(t, -1, s.Requests()[0].Reply)
}

func TestRequestSessionAndToolResult(t *testing.T) {
	s := New(t, Claude, Text("a"), Text("b"))
	req, err := http.NewRequest(http.MethodPost, s.URL()+chatPath[Claude], strings.NewReader(`{"messages":[{"content":[{"type":"tool_result"}]}]}`))
	require.NoError(t, err)
	req.Header.Set("X-Claude-Code-Session-Id", "s-1")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	post(t, s.URL()+chatPath[Claude], `{"messages":[]}`)
	reqs := s.ModelRequests()
	require.Equal(t, "s-1", reqs[0].Session())
	require.True(t, reqs[0].ToolResult())
	require.Equal(t, "", reqs[1].Session())
	require.False(t, reqs[1].ToolResult())
	var body struct{ Messages []any }
	require.NoError(t, reqs[0].JSON(&body))
	require.Len(t, body.Messages, 1)
}
