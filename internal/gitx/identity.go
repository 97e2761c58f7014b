package gitx

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// IdentityNote says, when git has no identity configured here and the
// commits autobuild makes would carry its fallback one, who they will be
// made as and how to set a real identity; "" when the user's identity is
// used. A commit under an identity nobody chose must not go unsaid.
func (r *Repo) IdentityNote() string {
	if len(r.identity) == 0 {
		return ""
	}
	if os.Getenv("GIT_AUTHOR_EMAIL") != "" && os.Getenv("GIT_COMMITTER_EMAIL") != "" {
		return "" // The environment names the author and committer.
	}
	name := strings.TrimSpace(r.gitConfig("user.name"))
	for _, kv := range r.identity {
		if v, ok := strings.CutPrefix(kv, "user.name="); ok {
			name = v
		}
	}
	return fmt.Sprintf("git has no user.email configured here, so autobuild's commits will be made as %q <%s>; "+
		"to commit as yourself, stop and run: git config --global user.name \"Your Name\" && git config --global user.email you@example.com",
		name, fallbackEmail)
}

// gitConfig reads one configuration value ("" when unset).
func (r *Repo) gitConfig(key string) string {
	out, _ := run(context.Background(), r.root, runOpts{}, "config", key)
	return out
}
