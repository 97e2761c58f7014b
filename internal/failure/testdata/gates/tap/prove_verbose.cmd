command: prove -v --exec sh t/
version: TAP::Harness v3.44 and Perl v5.36.0
exit: 1
