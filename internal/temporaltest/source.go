package temporaltest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// sourceRel is where the dev server's module lives in the repository.
var sourceRel = filepath.Join("tools", "temporal-dev")

// findSource returns the dev server's module directory, looked for in dir and
// its parents (tests run in their package's directory).
func findSource(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find %s: %w", sourceRel, err)
	}
	start := dir
	for {
		candidate := filepath.Join(dir, sourceRel)
		if _, err := os.Stat(filepath.Join(candidate, "go.mod")); err == nil {
			return candidate, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no %s/go.mod in %s or its parents", sourceRel, start)
		}
		dir = parent
	}
}

// sourceKey hashes what the built binary depends on: the module's go.mod,
// go.sum and Go files, and the platform. A change to any of them gives a new
// key, so a stale binary is never reused.
func sourceKey(src string) (string, error) {
	var files []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		name := d.Name()
		if name == "go.mod" || name == "go.sum" || (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash the dev server's sources: %w", err)
	}
	if len(files) == 0 {
		return "", errors.New("hash the dev server's sources: no files in " + src)
	}
	sort.Strings(files)
	h := sha256.New()
	fmt.Fprintf(h, "%s/%s\n", runtime.GOOS, runtime.GOARCH)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("hash the dev server's sources: %w", err)
		}
		rel, _ := filepath.Rel(src, f)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
