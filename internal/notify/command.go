package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Command runs a shell command line for each document, with the document's
// JSON on its standard input and $AUTOBUILD_NOTIFICATION set to its kind
// (for Telegram, ntfy or mail scripts). A command that fails or runs past
// Timeout is given up, never failing the run.
type Command struct {
	Line string
	// Timeout bounds each run (30 s when 0).
	Timeout time.Duration
	// Dir is where it runs ("" the current directory).
	Dir string
}

// Name is the command's first word: its arguments may hold a token.
func (c *Command) Name() string {
	f := strings.Fields(c.Line)
	if len(f) == 0 {
		return "command"
	}
	if len(f) == 1 {
		return "command " + f[0]
	}
	return "command " + f[0] + " …"
}

// Send runs the command with d on its standard input.
func (c *Command) Send(ctx context.Context, d Document) error {
	body, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encoding the notification: %w", err)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c.Line)
	cmd.Dir = c.Dir
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	cmd.Env = append(os.Environ(), "AUTOBUILD_NOTIFICATION="+string(d.Notification))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	setGroup(cmd)
	if err := cmd.Run(); err != nil {
		tail := strings.TrimSpace(out.String())
		if len(tail) > 200 {
			tail = tail[len(tail)-200:]
		}
		if tail != "" {
			return fmt.Errorf("%w: %s", err, tail)
		}
		return err
	}
	return nil
}
