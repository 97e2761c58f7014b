package temporaltest

import (
	"net"
	"testing"
)

// ClosedAddress is a 127.0.0.1 address nothing listens on: where a test
// wants no Temporal server to answer.
func ClosedAddress(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}
