package preset

import "fmt"

// RetryBudget is how often claude retries a refused model request (a 429,
// a 5xx) by itself before it exits: a couple of quick retries ride out a
// blip, and autobuild's own back-off (seconds to minutes, honouring the
// server's retry-after) takes over from there, so the two do not multiply.
// At its default claude retries ten times over about 3 minutes per
// invocation.
//
// codex's retries are short (6 requests in about 5 s) and set per provider
// in its config.toml (request_max_retries, stream_max_retries); gemini's
// (general.maxAttempts in ~/.gemini/settings.json, 10 requests over about
// 4 minutes for a 429) are read from the user's and the project's settings
// only. Neither can be set from the environment, and autobuild does not
// rewrite the user's files: they are left as they are (README, "Provider
// limits").
const RetryBudget = 2

// claudeRetryVar sets claude's budget; the preset sets it to RetryBudget
// unless the user set it (their environment, or autobuild.toml).
const claudeRetryVar = "CLAUDE_CODE_MAX_RETRIES"

var claudeRetryEnv = fmt.Sprintf("%s=%d", claudeRetryVar, RetryBudget)
