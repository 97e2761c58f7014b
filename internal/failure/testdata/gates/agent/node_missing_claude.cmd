command: node /tmp/autobuild-gate-record/agent-claude/lib/node_modules/@anthropic-ai/claude-code/cli.js
version: v20.20.2
exit: 1
