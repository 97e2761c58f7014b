package remote

import (
	"context"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// updateRefs runs `git update-ref --stdin` with the commands in script.
func updateRefs(ctx context.Context, dir, script string) error {
	_, err := gitx.GitInput(ctx, dir, strings.NewReader(script), "update-ref", "--stdin")
	return err
}
