command: node /tmp/autobuild-gate-record/agent-claude-code-acp/lib/node_modules/@zed-industries/claude-code-acp/dist/index.js
version: v20.20.2
exit: 1
