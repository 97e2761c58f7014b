package proc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCappedFileUnderCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	c, err := CreateCapped(path, 100)
	require.NoError(t, err)
	_, _ = c.Write([]byte("hello "))
	_, _ = c.Write([]byte("world"))
	require.NoError(t, c.Close())
	data, _ := os.ReadFile(path)
	assert.Equal(t, "hello world", string(data))
	assert.EqualValues(t, 11, c.Written())
}

func TestCappedFileKeepsHeadAndTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	c, err := CreateCapped(path, 20)
	require.NoError(t, err)
	// 10 bytes of head, 10 bytes of tail; write in odd pieces to wrap the ring.
	input := "HEAD56789" + strings.Repeat("m", 1000) + "0123456789"
	for len(input) > 0 {
		k := min(7, len(input))
		n, err := c.Write([]byte(input[:k]))
		require.NoError(t, err)
		require.Equal(t, k, n)
		input = input[k:]
	}
	require.NoError(t, c.Close())
	data, _ := os.ReadFile(path)
	assert.Equal(t, "HEAD56789m\n... [999 bytes omitted] ...\n0123456789", string(data))
	assert.EqualValues(t, 1019, c.Written())
}

func TestCappedFileBigWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	c, err := CreateCapped(path, 8)
	require.NoError(t, err)
	_, _ = c.Write([]byte("abcdefghijklmnopqrstuvwxyz"))
	require.NoError(t, c.Close())
	data, _ := os.ReadFile(path)
	assert.Equal(t, "abcd\n... [18 bytes omitted] ...\nwxyz", string(data))
}

func TestCappedFileNoCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	c, err := CreateCapped(path, 0)
	require.NoError(t, err)
	_, _ = c.Write([]byte(strings.Repeat("z", 5000)))
	require.NoError(t, c.Close())
	require.NoError(t, c.Close())
	data, _ := os.ReadFile(path)
	assert.Len(t, data, 5000)
}
