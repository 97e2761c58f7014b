package main

import (
	"fmt"
	"net"
	"strconv"
)

// freePort asks the kernel for a free TCP port on host. The listener is
// closed before the port is used, so another process may take it in between;
// the server then fails to bind and says so.
func freePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port on %s: %w", host, err)
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		return 0, fmt.Errorf("find a free port on %s: %w", host, err)
	}
	return strconv.Atoi(port)
}
