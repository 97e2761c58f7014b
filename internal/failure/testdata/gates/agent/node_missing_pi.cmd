command: node /tmp/autobuild-gate-record/agent-pi/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js
version: v20.20.2
exit: 1
