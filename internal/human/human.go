// Package human formats numbers for people: a duration, a count with its
// noun. It is a leaf: the summary, the report, the TUI, the status command
// and the failure texts all format the same way through it.
package human

import (
	"fmt"
	"time"
)

// Duration formats seconds as "45s", "3m12s", "1h02m" (up to 47h59m) or
// "2d03h": past two days, days and hours read better than "50h00m".
func Duration(seconds float64) string {
	d := time.Duration(seconds * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

// Plural is one when n is 1, many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and its noun: "1 file", "3 files".
func Count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Plural(n, one, many))
}
