package failure

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

// TestDefaultPatternRows checks every built-in row against an example of
// the output it is for, and its place in the classifier.
func TestDefaultPatternRows(t *testing.T) {
	t.Parallel()
	examples := map[string]struct {
		text   string
		reject string // similar text the row must not match, if any
	}{
		`command not found`:                                {"bash: jq: command not found", "found the command"},
		`executable file not found`:                        {`exec: "codex": executable file not found in $PATH`, ""},
		`(?m):\s*not found\s*$`:                            {"sh: 1: claude: not found", "file not found in cache, building"},
		`env: '?[^\s':]+'?: no such file or directory`:     {"/usr/bin/env: 'node': No such file or directory", ""},
		`no module named`:                                  {"/usr/bin/python3: No module named pytest", ""},
		`rate[ _-]?limit`:                                  {"Rate limit reached for requests", ""},
		`too many requests`:                                {"HTTP/1.1 Too Many Requests", ""},
		`overloaded`:                                       {`{"type":"overloaded_error"}`, ""},
		`(?:status|code|error|http|api)[^\n]{0,12}\b429\b`: {"API Error: 429", "x.go:429: undefined: y"},
		`usage limit|hit your (?:[\w-]+ )?limit`:           {"You've hit your weekly limit · resets Nov 29, 11:23pm (UTC)", "limited usage"},
		`experiencing high demand`:                         {"We’re currently experiencing high demand, which may cause temporary errors.", ""},
		`input token count[^\n]{0,40}exceeds the maximum number of tokens`: {"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", ""},
		`context[ _-]length`:           {"context_length_exceeded", ""},
		`context window`:               {"exceeds the model's context window", ""},
		`token limit`:                  {"token limit reached", ""},
		`maximum context`:              {"maximum context length is 128000 tokens", ""},
		`prompt is too long`:           {"prompt is too long: 210000 tokens", ""},
		`syntax ?error`:                {"SyntaxError: invalid syntax", ""},
		`compilation (?:error|failed)`: {"Compilation failed", ""},
		`\berror TS\d+:`:               {"src/a.ts(3,5): error TS2345: Argument", "error TSX"},
		`cannot find module`:           {"Error: Cannot find module './utils' from 'src/index.js'", ""},
		`module[ _]?not[ _]?found`:     {"ModuleNotFoundError: No module named 'x'", ""},
		`unexpected token`:             {"SyntaxError: Unexpected token '}'", ""},
		`indentation ?error`:           {"IndentationError: unexpected indent", ""},
		`import ?error`:                {"ImportError: cannot import name 'x'", ""},
		`\berror\[E\d{4}\]`:            {"error[E0308]: mismatched types", ""},
		`(?m)^\s*--- FAIL: `:           {"--- FAIL: TestAdd (0.00s)", "FAIL ok"},
		`(?m)^FAILED \S+::`:            {"FAILED tests/test_x.py::test_y - assert 1 == 2", ""},
		`assertion ?error`:             {"AssertionError: Expected 200 but got 404", ""},
		`\btests? failed\b`:            {"3 tests failed", "contested failed"},
	}
	require.Len(t, defaultPatterns, len(examples), "every row has an example")
	for _, p := range defaultPatterns {
		ex, ok := examples[p.Match]
		require.True(t, ok, "no example for row %q", p.Match)
		r, err := compile(p)
		require.NoError(t, err)
		require.True(t, r.re.MatchString(ex.text), "row %q should match %q", p.Match, ex.text)
		if ex.reject != "" {
			require.False(t, r.re.MatchString(ex.reject), "row %q should not match %q", p.Match, ex.reject)
		}
	}
}

// TestDefaultRowsClassify runs each output row's example through the
// classifier as the end of a failed agent's output.
func TestDefaultRowsClassify(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	for _, p := range defaultPatterns {
		if p.In == InGate {
			continue
		}
		var text string
		switch p.Type {
		case failreport.DependencyMissing:
			continue // needs a tool name; covered in TestClassifyPriority
		case failreport.RateLimited:
			text = map[string]string{
				`rate[ _-]?limit`: "rate limit", `too many requests`: "Too Many Requests", `overloaded`: "Overloaded",
				`(?:status|code|error|http|api)[^\n]{0,12}\b429\b`: "status code 429",
				`usage limit|hit your (?:[\w-]+ )?limit`:           "You’ve hit your usage limit. Try again at Jan 15th, 2027 8:00 AM.",
				`experiencing high demand`:                         "We’re currently experiencing high demand",
			}[p.Match]
		case failreport.ContextExhausted:
			text = map[string]string{
				`context[ _-]length`: "context length exceeded", `context window`: "context window full",
				`token limit`: "token limit", `maximum context`: "maximum context", `prompt is too long`: "prompt is too long",
				`input token count[^\n]{0,40}exceeds the maximum number of tokens`: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
			}[p.Match]
		case failreport.TypecheckError:
			text = map[string]string{
				`syntax ?error`: "syntax error", `compilation (?:error|failed)`: "compilation error",
				`\berror TS\d+:`: "error TS2304: x", `cannot find module`: "Cannot find module 'x'",
				`module[ _]?not[ _]?found`: "MODULE_NOT_FOUND", `unexpected token`: "Unexpected token", `indentation ?error`: "IndentationError",
				`import ?error`: "ImportError", `\berror\[E\d{4}\]`: "error[E0425]: x",
			}[p.Match]
		case failreport.TestFailure:
			text = map[string]string{
				`(?m)^\s*--- FAIL: `: "--- FAIL: TestA (0.0s)", `(?m)^FAILED \S+::`: "FAILED t.py::test_a",
				`assertion ?error`: "AssertionError", `\btests? failed\b`: "2 tests failed",
			}[p.Match]
		}
		require.NotEmpty(t, text, "no example for row %q", p.Match)
		r := c.Classify(Evidence{AgentExitCode: 1, AgentOutput: "working\n" + text + "\n"})
		require.Equal(t, p.Type, r.Type, "row %q with %q: %s", p.Match, text, r.Message)
	}
}

func TestDefaultPatternsIsACopy(t *testing.T) {
	t.Parallel()
	ps := DefaultPatterns()
	ps[0].Match = "changed"
	require.NotEqual(t, "changed", defaultPatterns[0].Match)
}
