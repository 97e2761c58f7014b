// Package agent is everything autobuild knows about coding agents without
// running them: the presets for real agent CLIs and how a --agent value
// becomes a command (Resolve), the prompt a phase attempt gets (BuildPrompt),
// the environment it runs with (Env), the result object an agent may end its
// output with (ParseResult), and the built-in simulated agent (SimMain), which
// runs inside its own process and plays a scenario file.
//
// # Adapters
//
// An agent that speaks the Agent Client Protocol (the presets qwen,
// opencode and copilot, `acp:CMD`, or a preset with `[agents.NAME] acp =
// true`) has an ACPAdapter instead (ACPAdapterFor): the engine hands an
// ACPSession the process's pipes and the session speaks the protocol
// (acp_session.go, acp_client.go); its Outcome is read as a parser's is.
//
// Each real agent CLI (claude, codex, gemini, aider) has an Adapter
// (AdapterFor): its command line (Args, with the user's extra arguments
// after it: `--agent 'claude --model opus'`), its environment (Env), the
// setup problems it is known for (Check, run by Preflight before anything
// is written), and a Parser for one attempt's output. The engine gives the
// parser the agent's stdout and stderr line by line, each apart from the
// other (Parser.Stdout, Parser.Stderr: the Notes they return are tool calls
// and message lines for the log and the UI; a Note with a Signal asks the
// engine to stop the agent now), then calls Parser.Finish with the exit
// status. The Outcome holds:
//
//   - Final, the agent's final message: the only text a result object is
//     read from (never stderr, an echoed prompt or a tool's output);
//   - Said, what the CLI itself said about a failure, for text patterns;
//   - Signal, the failure it reported (agent_setup with the fix,
//     rate_limited, context_exhausted), read from its structured output
//     first and its own words second;
//   - Usage, the attempt's tokens, turns and cost.
//
// To drive an adapter without the engine:
//
//	a, _ := agent.Resolve("claude --model opus", nil)
//	p := agent.AdapterFor(a).NewParser(prompt, dir)
//	for each stdout line: p.Stdout(line); for each stderr line: p.Stderr(line)
//	out := p.Finish(exitCode)
//	res, err := agent.ParseResult(out.Final)
//
// The engine starts agent processes itself (package proc); nothing here
// starts one.
package agent
