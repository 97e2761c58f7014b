command: npx jest
version: jest 30.5.2
exit: 1
