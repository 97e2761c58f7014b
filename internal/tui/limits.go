package tui

import (
	"fmt"
	"time"
)

// waitText is what a phase waiting out a provider's limit shows, with a
// countdown: "usage limit · resumes 03:10 (in 1h42m)" or "rate limited ·
// again in 32s".
func waitText(r *phaseRow, now time.Time) string {
	left := max(r.until.Sub(now), 0)
	if !r.waitUsage {
		return "rate limited · again in " + countdown(left)
	}
	at := r.until.Local()
	clock := at.Format("15:04")
	if at.YearDay() != now.Local().YearDay() || at.Year() != now.Local().Year() {
		clock = at.Format("Mon 15:04")
	}
	return fmt.Sprintf("usage limit · resumes %s (in %s)", clock, countdown(left))
}

// countdown is a wait left as a person reads it: "1h42m", "5m10s", "32s".
func countdown(d time.Duration) string {
	switch {
	case d >= time.Hour:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
}
