package notify

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Desktop shows each document as a desktop notification, with
// notify-send (Linux, BSD) or osascript (macOS).
type Desktop struct {
	// Program is the path of notify-send or osascript.
	Program string
}

// FindDesktop returns the desktop channel for this machine, or false when
// neither program is installed. look is exec.LookPath.
func FindDesktop(look func(string) (string, error)) (*Desktop, bool) {
	name := "notify-send"
	if runtime.GOOS == "darwin" {
		name = "osascript"
	}
	path, err := look(name)
	if err != nil {
		return nil, false
	}
	return &Desktop{Program: path}, true
}

// Name says which program shows the notifications.
func (d *Desktop) Name() string { return "desktop (" + baseName(d.Program) + ")" }

// Send shows the document's text.
func (d *Desktop) Send(ctx context.Context, doc Document) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	title := "autobuild: " + strings.ReplaceAll(string(doc.Notification), "_", " ")
	var cmd *exec.Cmd
	if baseName(d.Program) == "osascript" {
		script := fmt.Sprintf("display notification %s with title %s", appleString(doc.Text), appleString(title))
		cmd = exec.CommandContext(ctx, d.Program, "-e", script)
	} else {
		urgency := "normal"
		if doc.Notification == Halted || doc.Notification == BudgetReached {
			urgency = "critical"
		}
		cmd = exec.CommandContext(ctx, d.Program, "--app-name=autobuild", "--urgency="+urgency, "--", title, doc.Text)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w: %s", baseName(d.Program), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// appleString quotes s as an AppleScript string literal.
func appleString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
