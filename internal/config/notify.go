package config

import (
	"os"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/notify"
)

// Budget is max_cost, max_phase_cost and max_cost_hard: nil where not set.
type Budget struct {
	MaxCost      *float64
	MaxPhaseCost *float64
	Hard         *bool
}

// Notify is [notify] (docs/notify.md): who hears of a run, and of what.
type Notify struct {
	// Terminal is the TUI's bell and OSC 9 (nil: on).
	Terminal *bool
	Desktop  bool
	// Webhook is the URL to POST to: a "$NAME" value is read from the
	// environment variable NAME, so the file need not hold the secret.
	Webhook string
	Command string
	// Events are the notifications to send (nil: notify.DefaultKinds).
	Events []notify.Kind
	// LimitWait is the shortest usage-limit wait that notifies.
	LimitWait Duration
}

// notifyFile is [notify] as decoded.
type notifyFile struct {
	Terminal  *bool    `toml:"terminal"`
	Desktop   bool     `toml:"desktop"`
	Webhook   string   `toml:"webhook"`
	Command   string   `toml:"command"`
	Events    []string `toml:"events"`
	LimitWait string   `toml:"limit_wait"`
}

// budget checks the budget keys.
func (c *checker) budget(cost, phase *float64, hard *bool) Budget {
	for key, v := range map[string]*float64{"max_cost": cost, "max_phase_cost": phase} {
		if v != nil && *v < 0 {
			c.fail(key, "must be a number of US dollars, 0 (no budget) or more")
		}
	}
	return Budget{MaxCost: cost, MaxPhaseCost: phase, Hard: hard}
}

// notify checks [notify].
func (c *checker) notify(f *notifyFile) Notify {
	if f == nil {
		return Notify{}
	}
	n := Notify{Terminal: f.Terminal, Desktop: f.Desktop, Command: strings.TrimSpace(f.Command)}
	n.Webhook = strings.TrimSpace(f.Webhook)
	if name, ok := strings.CutPrefix(n.Webhook, "$"); ok {
		name = strings.Trim(name, "{}")
		n.Webhook = os.Getenv(name)
		if n.Webhook == "" {
			c.fail("notify.webhook", "the environment variable %s is not set", name)
		}
	}
	if n.Webhook != "" && !strings.HasPrefix(n.Webhook, "https://") && !strings.HasPrefix(n.Webhook, "http://") {
		// The value is not echoed: it may be a secret.
		c.fail("notify.webhook", "must be an http:// or https:// URL (or \"$NAME\" to read one from the environment)")
	}
	for _, e := range f.Events {
		k := notify.Kind(strings.TrimSpace(e))
		if !slices.Contains(notify.AllKinds(), k) {
			c.fail("notify.events", "%q is not a notification (notifications: %s)", e, KindNames())
			continue
		}
		n.Events = append(n.Events, k)
	}
	if f.Events != nil && len(f.Events) == 0 {
		c.fail("notify.events", "the list is empty: name at least one notification, or leave the key out")
	}
	if f.LimitWait != "" {
		n.LimitWait = c.durationOrZero("notify.limit_wait", f.LimitWait)
	}
	return n
}

// KindNames lists the notifications for messages.
func KindNames() string {
	var names []string
	for _, k := range notify.AllKinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}
