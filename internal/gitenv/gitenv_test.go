package gitenv

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWithoutLocationDropsWhatRedirectsGit(t *testing.T) {
	env := []string{"HOME=/h", "GIT_DIR=/r/.git/worktrees/wt", "GIT_WORK_TREE=/wt", "GIT_INDEX_FILE=/i",
		"GIT_AUTHOR_NAME=a", "GIT_DIRX=keep", "PATH=/bin", "GIT_COMMON_DIR=/c", "GIT_PREFIX=sub/",
		"GIT_OBJECT_DIRECTORY=/o", "GIT_NAMESPACE=n"}
	require.Equal(t, []string{"HOME=/h", "GIT_AUTHOR_NAME=a", "GIT_DIRX=keep", "PATH=/bin"}, WithoutLocation(env))
	require.Len(t, env, 11, "the input is left alone")
}
