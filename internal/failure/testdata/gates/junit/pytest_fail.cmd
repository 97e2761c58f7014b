command: /usr/bin/python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml >/dev/null; status=$?; cat report.xml; exit $status
version: pytest 7.2.1
exit: 1
