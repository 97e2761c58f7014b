package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Result is the result object an agent may end its output with (docs/agents.md).
type Result struct {
	PhaseID       string       `json:"phase_id"`
	Status        string       `json:"status"`
	Tasks         ResultTasks  `json:"tasks"`
	CommitMessage string       `json:"commit_message"`
	Files         ResultFiles  `json:"files"`
	Error         *ResultError `json:"error"`
	// Usage is what the attempt cost, for an agent that reports it in its
	// result object (the simulated agent's scenarios can); the agent CLIs'
	// own reports are read by their adapters.
	Usage *state.Usage `json:"usage,omitempty"`
}

// ResultTasks counts the phase's tasks and how many the agent completed.
type ResultTasks struct {
	Total     int `json:"total"`
	Completed int `json:"completed"`
}

// ResultFiles lists the paths the agent says it changed.
type ResultFiles struct {
	Created  []string `json:"created"`
	Modified []string `json:"modified"`
	Deleted  []string `json:"deleted"`
}

// ResultError is the agent's own account of why it failed.
type ResultError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Result statuses.
const (
	StatusComplete = "complete"
	StatusFailed   = "failed"
)

// ErrNoResult means the output holds no result object.
var ErrNoResult = errors.New("no result object in the agent's output")

// ParseResult finds the result object at the end of an agent's output: the
// last fenced ```json block (an unlabelled fenced block counts when it holds
// a JSON object), or else a bare JSON object that ends the output; a bare
// object after the last fenced block wins over it. A valid JSON object that
// has none of the result's keys (phase_id, status, tasks, commit_message) is
// not a result and is passed over (so is any other valid JSON value), so an agent may show other JSON on its
// way. ParseResult returns ErrNoResult when there is no result, and an error
// saying what is wrong when the result block is garbled or invalid.
func ParseResult(output string) (*Result, error) {
	blocks := jsonBlocks(output)
	if b, ok := bareObjectAtEnd(output); ok && (len(blocks) == 0 || b.start >= blocks[len(blocks)-1].end) && looksLikeResult(b.text) {
		return decodeResult(b.text, "the JSON object at the end of the output")
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		if json.Valid([]byte(b.text)) && !looksLikeResult(b.text) {
			continue
		}
		where := fmt.Sprintf("the json block at line %d of the output", b.line)
		r, err := decodeResult(b.text, where)
		if err != nil && !b.closed {
			return nil, fmt.Errorf("%w (the block is never closed with a fence)", err)
		}
		return r, err
	}
	return nil, ErrNoResult
}

// resultKeys are the keys that make a JSON object a result object; "error"
// is not among them, since providers print {"error": ...} objects too.
var resultKeys = []string{"phase_id", "status", "tasks", "commit_message"}

// looksLikeResult reports whether text is a JSON object with a result key.
func looksLikeResult(text string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return false
	}
	for _, k := range resultKeys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// isObject reports whether text is one valid JSON object.
func isObject(text string) bool {
	text = strings.TrimSpace(text)
	return strings.HasPrefix(text, "{") && json.Valid([]byte(text))
}

// decodeResult decodes and checks one result object; where names it in
// errors.
func decodeResult(text, where string) (*Result, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("%s is empty", where)
	}
	if !strings.HasPrefix(text, "{") {
		return nil, fmt.Errorf("%s is not a JSON object", where)
	}
	var r Result
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s is not a valid result object: %s", where, describeJSONError(text, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s holds more than one JSON value", where)
	}
	r.Status = strings.ToLower(strings.TrimSpace(r.Status))
	switch r.Status {
	case "", StatusComplete, StatusFailed:
	default:
		return nil, fmt.Errorf("%s: status must be %q or %q, not %q", where, StatusComplete, StatusFailed, r.Status)
	}
	if r.Tasks.Total < 0 || r.Tasks.Completed < 0 {
		return nil, fmt.Errorf("%s: task counts cannot be negative", where)
	}
	return &r, nil
}

// describeJSONError turns a decoding error into a message that says where
// in the block the problem is.
func describeJSONError(text string, err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line := 1 + strings.Count(text[:min(int(syn.Offset), len(text))], "\n")
		return fmt.Sprintf("%v (line %d of the block)", syn, line)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return fmt.Sprintf("%s must be %s, not a JSON %s", typ.Field, JSONKind(typ.Type), typ.Value)
	}
	return err.Error()
}

// block is a fenced code block of the output.
type block struct {
	text  string
	line  int // 1-based line of the opening fence
	start int // byte offset of the opening fence
	end   int // byte offset just after the closing fence (or the output's end)
	// closed is false for a block that runs to the end of the output.
	closed bool
}

// jsonBlocks returns the output's fenced blocks that are labelled json, or
// unlabelled and hold a JSON object, in order.
func jsonBlocks(output string) []block {
	var out []block
	lines := splitLines(output)
	for i := 0; i < len(lines); i++ {
		char, n, info, ok := openingFence(lines[i].text)
		if !ok {
			continue
		}
		b := block{line: i + 1, start: lines[i].start, end: len(output)}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if closingFence(lines[j].text, char, n) {
				b.closed, b.end = true, lines[j].end
				break
			}
			body = append(body, lines[j].text)
		}
		b.text = strings.Join(body, "\n")
		label := strings.ToLower(strings.Fields(info + " x")[0])
		if label == "json" || label == "jsonc" || (info == "" && b.closed && isObject(b.text)) {
			out = append(out, b)
		}
		i = j
	}
	return out
}

// line is one line of the output with its byte range (end includes the
// newline).
type line struct {
	text       string
	start, end int
}

func splitLines(s string) []line {
	var out []line
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		next := len(s)
		if end >= 0 {
			end += start
			next = end + 1
		} else {
			end = len(s)
		}
		out = append(out, line{text: strings.TrimSuffix(s[start:end], "\r"), start: start, end: next})
		start = next
	}
	return out
}

// openingFence reports whether l opens a fenced code block (CommonMark: at
// most three spaces of indent, three or more backticks or tildes, an info
// string without backticks for a backtick fence).
func openingFence(l string) (char byte, n int, info string, ok bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, "", false
	}
	char = t[0]
	for n < len(t) && t[n] == char {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	info = strings.TrimSpace(t[n:])
	if char == '`' && strings.Contains(info, "`") {
		return 0, 0, "", false
	}
	return char, n, info, true
}

// closingFence reports whether l closes a block opened by n chars.
func closingFence(l string, char byte, n int) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " \t")
	if len(t) < n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != char {
			return false
		}
	}
	return true
}

// bare is a JSON object found at the very end of the output.
type bare struct {
	text  string
	start int
}

// bareObjectAtEnd finds a JSON object that ends the output (only
// whitespace after it). It tries each '{' from the right: the first one
// from which exactly one object runs to the end is the top-level object,
// since an object nested in it would leave the outer closing brace behind.
func bareObjectAtEnd(output string) (bare, bool) {
	trimmed := strings.TrimRight(output, " \t\r\n")
	if !strings.HasSuffix(trimmed, "}") {
		return bare{}, false
	}
	for i := strings.LastIndexByte(trimmed, '{'); i >= 0; i = strings.LastIndexByte(trimmed[:i], '{') {
		dec := json.NewDecoder(strings.NewReader(trimmed[i:]))
		var v map[string]json.RawMessage
		if dec.Decode(&v) != nil {
			continue
		}
		if int(dec.InputOffset()) == len(trimmed)-i {
			return bare{text: trimmed[i:], start: i}, true
		}
	}
	return bare{}, false
}

// JSONKind names a Go type the way a JSON author thinks of it (for a
// decoding error: "a number", "a list of strings"); the simulated agent's
// scenario files are read with it too.
func JSONKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(JSONKind(t.Elem()), "a ") + "s"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	case reflect.Bool:
		return "true or false"
	}
	return "a " + t.String()
}
