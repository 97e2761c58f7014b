command: node /tmp/autobuild-gate-record/agent-gemini/lib/node_modules/@google/gemini-cli/dist/index.js
version: v20.20.2
exit: 1
