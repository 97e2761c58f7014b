command: /usr/bin/python3 -m unittest discover -s tests -t .
version: Python 3.11.2
exit: 1
