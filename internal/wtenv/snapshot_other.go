//go:build !linux

package wtenv

import "errors"

// Snapshots of a folder are btrfs subvolumes, on Linux only; elsewhere the
// folders' files are cloned or linked one by one.

func makeSubvolume(string) error { return errors.ErrUnsupported }

func snapshotSubvolume(string, string) error { return errors.ErrUnsupported }

func isSubvolume(string) bool { return false }
