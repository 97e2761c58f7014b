// Package agent is everything autobuild knows about coding agents without
// running them: the presets for real agent CLIs and how a --agent value
// becomes a command (Resolve), the prompt a phase attempt gets (BuildPrompt),
// the environment it runs with (Env), the result object an agent may end its
// output with (ParseResult), and the built-in simulated agent (SimMain), which
// runs inside its own process and plays a scenario file.
//
// The engine starts agent processes itself (package proc); nothing here
// starts one.
package agent
