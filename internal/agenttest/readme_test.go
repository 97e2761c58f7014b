package agenttest

// readmeHead and readmeTail frame the table TestRecord writes into
// testdata/agents/README.md.
const readmeHead = `# Recorded agent CLI output

Raw output of the real agent CLIs, recorded against the scripted mock model
servers of ` + "`internal/agenttest/mockapi`" + ` (on 127.0.0.1), for fast tests of
autobuild's stream parsers. Nothing here is written by hand: to record again,

    scripts/install-agent-clis.sh
    go test ./internal/agenttest/ -run TestRecord -record

Each case is three files: ` + "`<case>.stdout`, `<case>.stderr`, `<case>.exit`" + ` (the
exit status as text). Each run gets a fresh HOME (so no real login, config or
endpoint is read), a fresh git repository as its working directory, and the
environment of ` + "`agenttest.Env`" + `:

- claude: ` + "`ANTHROPIC_BASE_URL=<mock>`, `ANTHROPIC_API_KEY=dummy`, `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`, `DISABLE_TELEMETRY=1`, `DISABLE_AUTOUPDATER=1`, `DISABLE_ERROR_REPORTING=1`, `CLAUDE_CODE_MAX_RETRIES=0`, `IS_SANDBOX=1`" + ` (not in root_refusal);
  the subscription's limits have ` + "`CLAUDE_CODE_OAUTH_TOKEN=dummy`" + ` instead of the key.
- codex: ` + "`CODEX_HOME=<home>/.codex`" + ` whose config.toml sets a custom provider
  (` + "`base_url = \"<mock>/v1\"`, `wire_api = \"responses\"`, `supports_websockets = false`, `request_max_retries = 0`, `stream_max_retries = 0`, key from `MOCKAPI_KEY=dummy`" + `),
  model ` + "`gpt-5.5`" + `, analytics, the update check and the plugin and app features off.
- gemini: ` + "`GOOGLE_GEMINI_BASE_URL=<mock>`, `GEMINI_API_KEY=dummy`" + `, and
  ` + "`~/.gemini/settings.json`" + ` with ` + "`security.auth.selectedType = \"gemini-api-key\"`" + `,
  ` + "`general.maxAttempts = 1`" + `, auto update, usage statistics and telemetry off.

Checked with ` + "`strace -f -e trace=connect,sendto`" + ` over every case: the CLIs connect to
127.0.0.1 only and make no DNS lookup.

CLI versions:

`

const readmeTail = `
"time" is wall time with every case running at once on a shared two-core machine: a
case alone takes about a third of it. "model requests" counts the requests that reached the mock's chat endpoint
(with the CLI's internal retries turned down, one per model turn).

## Cases

- **success**: the model calls the CLI's file tool (claude ` + "`Write`, codex `exec_command`, gemini `write_file`" + `)
  to create hello.txt, then ends with a message holding the result object.
- **auth_401, forbidden_403, rate_429, overloaded, prompt_too_long**: the first model
  request gets the API's own HTTP error: 401, 403, 429 with retry-after 1 s, overloaded
  (claude 529 ` + "`overloaded_error`" + `, codex and gemini 503), and 400 prompt too long.
- **no_result**: the file is written, but the final message has no result object.
- **not_logged_in**: no key (and for gemini no auth type in its settings).
- **root_refusal** (claude, recorded only as root): ` + "`--dangerously-skip-permissions`" + ` without ` + "`IS_SANDBOX=1`" + `.
- **prompt_echo** (codex): the prompt holds an example result object and the model answers 401;
  ` + "`--json`" + ` mode does not echo the prompt. **prompt_echo_text** is the same in text mode,
  where codex echoes the whole prompt on stderr.
- **untrusted** (gemini): without ` + "`--skip-trust`" + `, in a folder never trusted.
- **usage_limit, weekly_limit, opus_limit** (claude): a subscription's limits, claude logged in
  with an OAuth token (` + "`CLAUDE_CODE_OAUTH_TOKEN`" + `). The API answers a 429 whose
  ` + "`anthropic-ratelimit-unified-*`" + ` headers name the window (` + "`representative-claim`" + `
  ` + "`five_hour`, `seven_day`, `seven_day_opus`" + `) and its reset (epoch seconds); claude's stream
  first carries a ` + "`rate_limit_event`" + ` with that exact ` + "`resetsAt`" + `, then words it "You've hit
  your 5-hour limit · resets 1:26am (UTC)" (to the minute), "You've hit your weekly limit ·
  resets Nov 30, 4:26am (UTC)", "You've hit your Opus limit · resets …".
- **usage_limit, usage_limit_today** (codex): a 429 ` + "`usage_limit_reached`" + ` with ` + "`resets_at`" + `,
  which it words "try again at Jan 15th, 2027 8:00 AM" (another day) or "try again at 11:30 PM."
  (later today, its local time).
- **high_demand** (codex): a 500, which codex words "We’re currently experiencing high demand".

## The CLIs' own retries

Each CLI retries a failed model request by itself before it exits. The recordings
above turn that off; at the defaults (` + "`" + `go test ./internal/agenttest/ -run
TestMeasureRetries -measure-retries -v` + "`" + `, the mock failing every request, 429 with
retry-after 1 s) the pinned versions took:

| CLI | 401 | 429 | overloaded | how to turn it down |
|---|---|---|---|---|
| claude | 178 s, 11 requests | 180 s, 11 requests | 529: 187 s, 11 requests | ` + "`" + `CLAUDE_CODE_MAX_RETRIES=0` + "`" + ` |
| codex | 6.3 s, 6 requests | 5.4 s, 6 requests | 503: 3.3 s, 5 requests | provider's ` + "`" + `request_max_retries = 0` + "`" + `, ` + "`" + `stream_max_retries = 0` + "`" + ` in config.toml |
| gemini | 1.2 s, 1 request (no retry) | 233 s, 10 requests | 503: 216 s, 10 requests | ` + "`" + `general.maxAttempts = 1` + "`" + ` in settings.json |

gemini's exit status on an API error is not one fixed code: 144 (400), 145 (401),
147 (403), 173 (429), 247 (503) in these recordings; 41 is no auth, 55 an untrusted folder.

Nothing listening at the base URL (measured by hand, the same environment with the URL's
port closed): claude gives up after 185 s at its defaults (about 1 s with
` + "`" + `CLAUDE_CODE_MAX_RETRIES=0` + "`" + `); gemini after 290 s at its defaults and still 68 s with
` + "`" + `maxAttempts = 1` + "`" + ` (its fetch-error retries are apart from that setting); codex reconnects
without end ("Reconnecting... waiting for network"), which autobuild stops at the third
such line as agent_setup (16 s with its retries off, 25 s at the defaults, through autobuild).
`
