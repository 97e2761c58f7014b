command: node /tmp/autobuild-gate-record/agent-qwen/lib/node_modules/@qwen-code/qwen-code/cli-entry.js
version: v20.20.2
exit: 1
