command: npx tsc --noEmit
version: tsc Version 7.0.2
exit: 1
