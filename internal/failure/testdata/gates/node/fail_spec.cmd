command: node --test --test-reporter=spec
version: v20.20.2
exit: 1
