command: node /tmp/autobuild-gate-record/agent-copilot/lib/node_modules/@github/copilot/npm-loader.js
version: v20.20.2
exit: 1
