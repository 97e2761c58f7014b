command: node --test
version: v20.20.2
exit: 1
