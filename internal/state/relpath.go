package state

import "path/filepath"

// RelPath makes a path relative to root (the repository root), with
// slashes, for the state files and messages: the state directory moves
// with the repository. "" stays "".
func RelPath(root, path string) string {
	if path == "" {
		return ""
	}
	if rel, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}
