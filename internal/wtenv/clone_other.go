//go:build !linux && !darwin

package wtenv

import (
	"errors"
	"os"
)

// cloneFile: no copy-on-write clones here; files are linked or copied.
func cloneFile(string, string, os.FileMode) error { return errors.ErrUnsupported }
