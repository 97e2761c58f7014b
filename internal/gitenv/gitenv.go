// Package gitenv knows the environment variables that tell git which
// repository, work tree or index to use. A parent git (a hook, a `!` alias
// run inside a linked worktree) may have set them for autobuild; passed on,
// they would send git in a phase's worktree, whether run by autobuild, an
// agent or a gate, to the user's repository and index instead. Every child
// is addressed by its working directory alone.
package gitenv

import "strings"

// locationVars are the variables, as "NAME=" prefixes.
var locationVars = []string{
	"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_COMMON_DIR=",
	"GIT_PREFIX=", "GIT_OBJECT_DIRECTORY=", "GIT_NAMESPACE=",
}

// IsLocation reports whether kv ("NAME=value") sets one of them.
func IsLocation(kv string) bool {
	for _, p := range locationVars {
		if strings.HasPrefix(kv, p) {
			return true
		}
	}
	return false
}

// WithoutLocation returns env without them, in a new slice.
func WithoutLocation(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !IsLocation(kv) {
			out = append(out, kv)
		}
	}
	return out
}
