command: /tmp/autobuild-gate-record/agent-aider/aider --yes-always --message-file prompt.md
version: Python 3.11.2
exit: 1
