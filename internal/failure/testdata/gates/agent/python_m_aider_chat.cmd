command: /usr/bin/python3 -m aider_chat --yes-always
version: Python 3.11.2
exit: 1
