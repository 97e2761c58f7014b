package sim

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// limitMessage is what the simulated agent's {"limit": ...} step prints on
// standard error before it stops with status 1, as a real agent CLI does
// when its provider refuses it:
//
//	"usage 5s"  a usage limit that resets in 5 s (codex's words)
//	"rate"      a rate limit (claude's 429)
//	"context"   an exhausted context (claude's "Prompt is too long")
func limitMessage(spec string) (string, error) {
	kind, arg, _ := strings.Cut(strings.TrimSpace(spec), " ")
	switch kind {
	case "usage":
		d, err := time.ParseDuration(strings.TrimSpace(arg))
		if err != nil || d <= 0 {
			return "", fmt.Errorf("limit %q: a usage limit needs the time to its reset, such as \"usage 5s\"", spec)
		}
		return "You've hit your usage limit. Try again in " + spelledOut(d) + ".", nil
	case "rate":
		return "API Error: 429 {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"This request would exceed your rate limit.\"}}", nil
	case "context":
		return "API Error: 400 Prompt is too long: 212345 tokens > 200000 maximum", nil
	}
	return "", fmt.Errorf("limit %q: write \"usage 5s\", \"rate\" or \"context\"", spec)
}

// errLimited stops the simulated agent after a limit step.
var errLimited = errors.New("limited")

// spelledOut writes a duration as codex does: "1 hours 30 minutes 5 seconds".
func spelledOut(d time.Duration) string {
	var parts []string
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"days", 24 * time.Hour}, {"hours", time.Hour}, {"minutes", time.Minute}, {"seconds", time.Second}} {
		if n := d / u.d; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, u.name))
			d -= n * u.d
		}
	}
	if len(parts) == 0 {
		return "1 seconds"
	}
	return strings.Join(parts, " ")
}
