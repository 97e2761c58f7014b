package wtenv

import (
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPortsAreDistinctWhileHeld(t *testing.T) {
	p := NewPorts(0, 0)
	p.free = func(int) bool { return true }
	a, b, c := p.Acquire(), p.Acquire(), p.Acquire()
	require.Equal(t, []int{41000, 41010, 41020}, []int{a.First, b.First, c.First})
	require.Equal(t, []string{"AUTOBUILD_PORT=41010", "AUTOBUILD_PORT_COUNT=10", "AUTOBUILD_PORT_RANGE=41010-41019"}, b.Env())
	p.Release(b)
	require.Equal(t, 41010, p.Acquire().First, "a block given back is taken again")
}

func TestPortsPassOverABusyBlock(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	busy := l.Addr().(*net.TCPAddr).Port
	p := NewPorts(busy-1, 3)
	b := p.Acquire()
	require.Equal(t, busy+2, b.First, "the block holding %s is passed over", strconv.Itoa(busy))
}
