command: npx vitest run
version: vitest vitest/4.1.12 linux-x64 node-v20.20.2
exit: 1
