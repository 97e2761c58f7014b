// Package agent is the vocabulary autobuild speaks with coding agents: how
// a --agent value becomes a command (Resolve, from the preset table), the
// environment an attempt runs with (Env), the result object an agent may
// end its output with (ParseResult), and the types an adapter reads an
// agent's output into (Note, Outcome, Signal, Quota). Its sub-packages,
// none of which imports a sibling upward:
//
//   - preset: the one table of presets (a leaf: agent, adapters, config
//     and failure all read it);
//   - adapters: one adapter per agent CLI (claude.go, codex.go, gemini.go,
//     aider.go, pi.go) and the ACP client (acp*.go), Preflight;
//   - prompts: the prompt a phase attempt gets (Build), on a retry, after
//     the context ran out, with a person's note;
//   - sim: the built-in simulated agent (Main), which runs inside its own
//     process and plays a scenario file.
//
// # Adapters
//
// An agent that speaks the Agent Client Protocol (the presets qwen,
// opencode and copilot, `acp:CMD`, or a preset with `[agents.NAME] acp =
// true`) has an adapters.ACPAdapter instead (ACPAdapterFor): the engine hands an
// ACPSession the process's pipes and the session speaks the protocol
// (acp_session.go, acp_client.go); its Outcome is read as a parser's is.
//
// Each real agent CLI (claude, codex, gemini, aider, pi) has an Adapter
// (adapters.For) beside its row in the preset table (its command line, with
// the user's extra arguments after it: `--agent 'claude --model opus'`, and
// its environment): the setup problems it is known for (Check, run by
// Preflight before anything is written), how it continues a session
// (ResumeArgs), and a Parser for one attempt's output. The engine gives the
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
//	p := adapters.For(a).NewParser(prompt, dir)
//	for each stdout line: p.Stdout(line); for each stderr line: p.Stderr(line)
//	out := p.Finish(exitCode)
//	res, err := agent.ParseResult(out.Final)
//
// The engine starts agent processes itself (package proc); nothing here
// starts one.
package agent
