command: node --test --test-reporter=junit
version: v20.20.2
exit: 1
