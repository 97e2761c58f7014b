package demo

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
}

type scenario struct {
	Default attempt              `json:"default"`
	Phases  map[string][]attempt `json:"phases"`
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

// Scenario returns the demo's script for the simulated agent. With halt,
// phase 2B never manages to write Format: both attempts leave the build
// broken, the run halts, and the user can fix it by hand and resume.
func Scenario(halt bool) any {
	read := say("Reading the phase and the files it names", "400ms")
	sc := scenario{
		Default: attempt{Steps: []step{say("Nothing to do for this phase", "200ms")}},
		Phases: map[string][]attempt{
			"0": {work([]step{read, say("Plan: shared errors for the calculator", "300ms")},
				[][2]string{{"calc/errors.go", "errors.go.txt"}},
				say("Done: 1 file created", "200ms"))},
			"1": {work([]step{read, say("Plan: four operations, table tests", "400ms")},
				[][2]string{{"calc/calc.go", "calc.go.txt"}, {"calc/calc_test.go", "calc_test.go.txt"}},
				say("Running go test ./calc/ ... ok", "700ms"), say("Done: 2 files created", "200ms"))},
			"2a": {work([]step{read, say("Plan: tokenizer, then a precedence-climbing parser", "600ms"),
				say("Designing the grammar: sum := product (('+'|'-') product)*", "900ms")},
				[][2]string{{"calc/parse.go", "parse.go.txt"}, {"calc/parse_test.go", "parse_test.go.txt"}},
				say("Checking edge cases: empty input, trailing operator, bad tokens", "900ms"),
				say("Done: 2 files created", "300ms"))},
			"2b": {
				work([]step{read, say("Plan: strconv.FormatFloat with six decimals", "500ms")},
					[][2]string{{"calc/format.go", "format_buggy.go.txt"}, {"calc/format_test.go", "format_test.go.txt"}},
					say("Done: Format implemented and tested", "300ms")),
				work([]step{say("Reading the failure report of attempt 1: test_failure in TestFormat", "500ms"),
					say("Cause: FormatFloat(x, 'f', 6) keeps trailing zeros (\"3.000000\")", "700ms"),
					say("Fix: print integers without decimals, trim trailing zeros", "500ms")},
					[][2]string{{"calc/format.go", "format.go.txt"}},
					say("Running go test ./calc/ ... ok", "700ms"), say("Done: Format fixed", "200ms")),
			},
			"2c": {work([]step{read, say("Plan: a bounded list, newest first", "700ms")},
				[][2]string{{"calc/history.go", "history.go.txt"}, {"calc/history_test.go", "history_test.go.txt"}},
				say("Done: 2 files created", "600ms"))},
			"3": {work([]step{read, say("Plan: cmd/calc wires Eval, Format and History", "500ms")},
				[][2]string{{"cmd/calc/main.go", "main.go.txt"}, {"cmd/calc/main_test.go", "main_test.go.txt"}},
				say("Trying it: calc '1 + 2 * 3' prints 7", "600ms"), say("Done: 2 files created", "200ms"))},
		},
	}
	if halt {
		giveUp := work([]step{read, say("Plan: Format with strconv, tests first", "500ms")},
			[][2]string{{"calc/format_test.go", "format_test.go.txt"}},
			say("Ran out of ideas for trimming zeros; leaving Format unwritten", "600ms"))
		sc.Phases["2b"] = []attempt{giveUp, giveUp}
	}
	return sc
}
