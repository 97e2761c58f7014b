package demo

import "github.com/autobuild-sh/autobuild/internal/phaseid"

// The scenario's JSON shape is the simulated agent's (package agent): per
// phase a list of attempts, each a list of steps.

type step struct {
	Say     string `json:"say,omitempty"`
	Delay   string `json:"delay,omitempty"`
	Write   string `json:"write,omitempty"`
	Content string `json:"content,omitempty"`
}

type attempt struct {
	Steps []step `json:"steps"`
	Exit  int    `json:"exit"`
	// Result is the result object the agent prints; the demo's carry only
	// a usage report (tokens, cost), so `autobuild report` has figures.
	Result map[string]any `json:"result,omitempty"`
}

type scenario struct {
	Default attempt                  `json:"default"`
	Phases  map[phaseid.ID][]attempt `json:"phases"`
}

func say(line, delay string) step { return step{Say: line, Delay: delay} }

func writeFile(path, src string) []step {
	return []step{say("Writing "+path, "250ms"), {Write: path, Content: mustRead(src)}}
}

func work(intro []step, files [][2]string, outro ...step) attempt {
	steps := append([]step{}, intro...)
	for _, f := range files {
		steps = append(steps, writeFile(f[0], f[1])...)
	}
	return attempt{Steps: append(steps, outro...)}
}

// usage is a made-up but plausible usage report of an attempt that read in
// thousands of input tokens and wrote out thousands of output tokens, priced
// at $3 and $15 per million.
func usage(in, out int) map[string]any {
	cost := float64(in)*3e-6 + float64(out)*15e-6
	return map[string]any{"usage": map[string]any{"model": "sim-demo", "input_tokens": in * 1000,
		"output_tokens": out * 1000, "turns": 1 + in/4, "cost_usd": float64(int(cost*1e7)) / 1e4}}
}

// costed gives an attempt its usage report.
func costed(a attempt, in, out int) attempt {
	a.Result = usage(in, out)
	return a
}

// Scenario returns the demo's script for the simulated agent. With halt,
// phase 2B never manages to write Format: both attempts leave the build
// broken, the run halts, and the user can fix it by hand and resume.
func Scenario(halt bool) any {
	read := say("Reading the phase and the files it names", "400ms")
	sc := scenario{
		Default: attempt{Steps: []step{say("Nothing to do for this phase", "200ms")}},
		Phases: map[phaseid.ID][]attempt{
			"0": {costed(work([]step{read, say("Plan: shared errors for the calculator", "300ms")},
				[][2]string{{"calc/errors.go", "errors.go.txt"}},
				say("Done: 1 file created", "200ms")), 9, 1)},
			"1": {costed(work([]step{read, say("Plan: four operations, table tests", "400ms")},
				[][2]string{{"calc/calc.go", "calc.go.txt"}, {"calc/calc_test.go", "calc_test.go.txt"}},
				say("Running go test ./calc/ ... ok", "700ms"), say("Done: 2 files created", "200ms")), 18, 3)},
			"2a": {costed(work([]step{read, say("Plan: tokenizer, then a precedence-climbing parser", "600ms"),
				say("Designing the grammar: sum := product (('+'|'-') product)*", "900ms")},
				[][2]string{{"calc/parse.go", "parse.go.txt"}, {"calc/parse_test.go", "parse_test.go.txt"}},
				say("Checking edge cases: empty input, trailing operator, bad tokens", "900ms"),
				say("Done: 2 files created", "300ms")), 31, 5)},
			"2b": {
				costed(work([]step{read, say("Plan: strconv.FormatFloat with six decimals", "500ms")},
					[][2]string{{"calc/format.go", "format_buggy.go.txt"}, {"calc/format_test.go", "format_test.go.txt"}},
					say("Done: Format implemented and tested", "300ms")), 16, 2),
				costed(work([]step{say("Reading the failure report of attempt 1: test_failure in TestFormat", "500ms"),
					say("Cause: FormatFloat(x, 'f', 6) keeps trailing zeros (\"3.000000\")", "700ms"),
					say("Fix: print integers without decimals, trim trailing zeros", "500ms")},
					[][2]string{{"calc/format.go", "format.go.txt"}},
					say("Running go test ./calc/ ... ok", "700ms"), say("Done: Format fixed", "200ms")), 24, 2),
			},
			"2c": {costed(work([]step{read, say("Plan: a bounded list, newest first", "700ms")},
				[][2]string{{"calc/history.go", "history.go.txt"}, {"calc/history_test.go", "history_test.go.txt"}},
				say("Done: 2 files created", "600ms")), 14, 2)},
			"3": {costed(work([]step{read, say("Plan: cmd/calc wires Eval, Format and History", "500ms")},
				[][2]string{{"cmd/calc/main.go", "main.go.txt"}, {"cmd/calc/main_test.go", "main_test.go.txt"}},
				say("Trying it: calc '1 + 2 * 3' prints 7", "600ms"), say("Done: 2 files created", "200ms")), 27, 4)},
		},
	}
	if halt {
		giveUp := costed(work([]step{read, say("Plan: Format with strconv, tests first", "500ms")},
			[][2]string{{"calc/format_test.go", "format_test.go.txt"}},
			say("Ran out of ideas for trimming zeros; leaving Format unwritten", "600ms")), 21, 1)
		sc.Phases["2b"] = []attempt{giveUp, giveUp}
	}
	return sc
}
