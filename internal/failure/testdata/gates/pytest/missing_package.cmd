command: /usr/bin/python3 -m pytest
version: pytest 7.2.1
exit: 2
