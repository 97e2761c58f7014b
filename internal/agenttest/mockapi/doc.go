// Package mockapi serves scripted model APIs on 127.0.0.1 for the real agent
// CLIs: the Anthropic Messages API as claude calls it, the OpenAI Responses
// API as codex calls it, and the Gemini API as gemini calls it. Each server
// answers the CLI's model requests with the test's replies in order (a tool
// call that writes a file, a final text message, or an HTTP error with the
// API's own error body) and logs every request it receives.
//
// The request shapes and tool names were checked by logging the requests of
// @anthropic-ai/claude-code 2.1.330, @openai/codex 0.169.0 and
// @google/gemini-cli 0.61.0.
package mockapi
