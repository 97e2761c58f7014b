package clip

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClip(t *testing.T) {
	assert.Equal(t, "0123456", SHA("0123456789abcdef"))
	assert.Equal(t, "abc", SHA("abc"))
	assert.Equal(t, "one", FirstLine("one\ntwo"))
	assert.Equal(t, "", FirstLine(""))
	assert.Equal(t, []string{"b", "c"}, LastLines("a\nb\nc\n\n", 2))
	assert.Equal(t, []string{"a"}, LastLines("a", 5))
	assert.Equal(t, "b\nc", Tail("a\nb\nc", 2))
}
