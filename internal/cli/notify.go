package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/notify"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// EnvNotifyWebhook names the environment variable that gives the webhook
// URL, so the secret is in neither the command line nor the file.
const EnvNotifyWebhook = "AUTOBUILD_NOTIFY_WEBHOOK"

// notifyGrace is how long autobuild waits at its exit for notifications
// still being delivered (the run's last one is the one that matters).
const notifyGrace = 10 * time.Second

// budgetLimits are the run's budgets: the flags', else the file's, else
// the ones the run recorded (a resume keeps its budget).
func (o *runOptions) budgetLimits(fc *config.Config, previous *state.Run) (budget.Limits, bool, error) {
	var l budget.Limits
	if previous != nil && !o.fresh {
		l = budget.Limits{Run: previous.MaxCostUSD, Phase: previous.MaxPhaseCostUSD}
	}
	if v := fc.Budget.MaxCost; v != nil {
		l.Run = *v
	}
	if v := fc.Budget.MaxPhaseCost; v != nil {
		l.Phase = *v
	}
	hard := fc.Budget.Hard != nil && *fc.Budget.Hard
	if o.flags != nil {
		if o.flags.Changed("max-cost") {
			if o.maxCost < 0 {
				return l, false, usageErr("--max-cost must be a number of US dollars, 0 (no budget) or more, not %v", o.maxCost)
			}
			l.Run = o.maxCost
		}
		if o.flags.Changed("max-phase-cost") {
			if o.maxPhaseCost < 0 {
				return l, false, usageErr("--max-phase-cost must be a number of US dollars, 0 (no budget) or more, not %v", o.maxPhaseCost)
			}
			l.Phase = o.maxPhaseCost
		}
		if o.flags.Changed("max-cost-hard") {
			hard = o.maxCostHard
		}
	}
	return l, hard, nil
}

// notifySettings merges [notify], $AUTOBUILD_NOTIFY_WEBHOOK and the
// --notify flags (which win).
type notifySettings struct {
	terminal        bool
	desktop         bool
	webhook, script string
	kinds           []notify.Kind
	limitWait       time.Duration
}

func (o *runOptions) notifySettings(fc config.Notify) (notifySettings, error) {
	n := notifySettings{terminal: fc.Terminal == nil || *fc.Terminal, desktop: fc.Desktop,
		webhook: fc.Webhook, script: fc.Command, kinds: fc.Events, limitWait: fc.LimitWait.Duration}
	if n.limitWait == 0 {
		n.limitWait = 30 * time.Minute
	}
	if env := strings.TrimSpace(os.Getenv(EnvNotifyWebhook)); env != "" {
		n.webhook = env
	}
	// The secret is autobuild's own: the agents and gates it runs do not
	// inherit it (an agent may print its environment into a log).
	_ = os.Unsetenv(EnvNotifyWebhook)
	for _, v := range o.notify {
		key, value, _ := strings.Cut(v, "=")
		switch key {
		case "off", "none":
			n = notifySettings{}
		case "desktop":
			n.desktop = true
		case "terminal":
			n.terminal = value != "off"
		case "attempts":
			if len(n.kinds) == 0 {
				n.kinds = notify.DefaultKinds()
			}
			n.kinds = append(n.kinds, notify.AttemptFailed)
		case "webhook":
			if !strings.HasPrefix(value, "https://") && !strings.HasPrefix(value, "http://") {
				return n, usageErr("--notify webhook=URL: the URL must start with https:// or http://")
			}
			n.webhook = value
		case "command":
			if strings.TrimSpace(value) == "" {
				return n, usageErr("--notify command=CMD: give the command line")
			}
			n.script = value
		default:
			return n, usageErr("--notify %q: give desktop, terminal, terminal=off, attempts, off, webhook=URL or command=CMD", key)
		}
	}
	return n, nil
}

// notifier builds the run's notifier from its settings (nil without a
// channel), and says on w where notifications go, secrets redacted.
// Deliveries that fail for good are said on errs (nil: not said, under
// the UI, whose screen a line would break).
func (n notifySettings) notifier(o *runOptions, root string, w, errs io.Writer) *notify.Notifier {
	var chans []notify.Channel
	if n.webhook != "" {
		chans = append(chans, &notify.Webhook{URL: n.webhook})
	}
	if n.script != "" {
		chans = append(chans, &notify.Command{Line: n.script, Dir: root})
	}
	if n.desktop {
		if d, ok := notify.FindDesktop(exec.LookPath); ok {
			chans = append(chans, d)
		} else {
			fmt.Fprintln(w, "autobuild: --notify desktop: neither notify-send nor osascript is installed; no desktop notifications")
		}
	}
	if len(chans) == 0 {
		return nil
	}
	nt := notify.New(notify.Options{Channels: chans, Kinds: n.kinds, LimitWait: n.limitWait,
		Plan: o.planPath, Dir: root, Errors: errs, Resume: func(d notify.Document) string { return notifyResume(o, root, d) }})
	fmt.Fprintln(w, "autobuild: notifications go to "+strings.Join(nt.Names(), ", "))
	return nt
}

// alert is the TUI's terminal notification for a run's halts (nil when
// turned off).
func (n notifySettings) alert() func(event.Event) string {
	if !n.terminal {
		return nil
	}
	return notify.Alert([]notify.Kind{notify.Halted}, os.Getenv)
}

// notifyResume is the command that resumes the run a document is about:
// a budget halt's raises the budget reached.
func notifyResume(o *runOptions, root string, d notify.Document) string {
	in := summary.Input{ResumeCommand: commandLine(o, "--resume")}
	if snap, err := state.Open(root).Snapshot(); err == nil && snap.Run != nil {
		in.Run, in.Phases = snap.Run, snap.Phases
	}
	return summary.ResumeCommand(in)
}

// secretArg reports whether a command-line argument carries the webhook
// URL (--notify webhook=…, or the value after --notify): it is left out of
// every command autobuild prints.
func secretArg(args []string, i int) bool {
	a := args[i]
	if strings.HasPrefix(a, "--notify=webhook=") {
		return true
	}
	if strings.HasPrefix(a, "webhook=") && i > 0 && args[i-1] == "--notify" {
		return true
	}
	return a == "--notify" && i+1 < len(args) && strings.HasPrefix(args[i+1], "webhook=")
}
