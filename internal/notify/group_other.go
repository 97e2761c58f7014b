//go:build !unix

package notify

import "os/exec"

func setGroup(*exec.Cmd) {}
