// Package agenttest runs the real agent CLIs (claude, codex, gemini, installed
// by scripts/install-agent-clis.sh) against the mock model servers of package
// mockapi, for tests and for recording the fixtures in testdata/agents.
package agenttest
