command: node /tmp/autobuild-gate-record/agent-codex/lib/node_modules/@openai/codex/bin/codex.js
version: v20.20.2
exit: 1
