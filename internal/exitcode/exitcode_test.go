package exitcode

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOf(t *testing.T) {
	t.Parallel()
	require.Equal(t, Refused, Of(fmt.Errorf("starting: %w", Refusedf("locked by %d", 42))))
	require.Equal(t, Usage, Of(Usagef("bad flag")))
	require.Equal(t, Halted, Of(errors.New("anything else")))
	err := &Error{Code: Interrupted, Err: io.EOF}
	require.ErrorIs(t, err, io.EOF)
	require.Equal(t, "EOF", err.Error())
	require.Equal(t, "locked by 42", Refusedf("locked by %d", 42).Error())
}
