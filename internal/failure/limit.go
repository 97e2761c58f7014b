package failure

import (
	"strconv"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// Limit is what an agent's words say about a provider's limit: whether it is
// a usage limit of a subscription (hours away) rather than a rate limit
// (seconds away), and when it lifts, when they say.
type Limit struct {
	// Usage is set for a subscription's usage limit (claude's "You've hit
	// your 5-hour limit", "… weekly limit", "… Opus limit", codex's "You've
	// hit your usage limit").
	Usage bool
	// ResetsAt is when the limit lifts, zero when the text does not say.
	ResetsAt time.Time
	// RetryAfter is a server's or CLI's "try again in 20s" for a rate
	// limit, zero when none is given.
	RetryAfter time.Duration
}

var (
	usageLimitRE = lazyre.New(`(?i)usage limit|hit your (?:[\w-]+ )?limit|(?:\d+-hour|weekly|session|opus|sonnet) limit reached|out of (?:extra )?usage`)
	// Older Claude Code versions printed "Claude AI usage limit reached|1764000000".
	epochRE = lazyre.New(`(?i)limit reached\|(\d{9,11})\b`)
	// codex: "try again in 4 days 3 hours 2 minutes", "Please try again in
	// 1s", "retry in 20.5 seconds", "resets in 2h 5m".
	relativeRE = lazyre.New(`(?i)(?:try again|retry|resets?|available again)\s+in\s+((?:\d+(?:\.\d+)?\s*(?:days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s|ms)\b[\s,]*(?:and\s+)?)+)`)
	unitRE     = lazyre.New(`(?i)(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s|ms)\b`)
	// claude: "You've hit your 5-hour limit · resets 10:10pm (UTC)",
	// "Your limit will reset at 3pm (Europe/Paris)", "resets at 15:30";
	// codex: "try again at 10:11 PM." (its local time, today).
	clockRE = lazyre.New(`(?i)(?:resets?|try again)\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([A-Za-z_]+(?:/[A-Za-z_+-]+)*)\))?`)
	// claude: "You've hit your weekly limit · resets Nov 29, 11:23pm (UTC)"
	// (the year left out); codex: "try again at Jan 15th, 2027 8:00 AM"
	// (its local time).
	dateRE = lazyre.New(`(?i)(?:resets?|try again)\s+(?:at\s+|on\s+)?(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{1,2})(?:st|nd|rd|th)?,?(?: (\d{4}))?(?:,? (?:at )?(\d{1,2})(?::(\d{2}))? ?([ap]m))?(?:\s*\(([A-Za-z_]+(?:/[A-Za-z_+-]+)*)\))?`)
	// An HTTP retry-after header as a CLI shows it, or gemini's RetryInfo
	// ("retryDelay": "12s").
	retryAfterRE = lazyre.New(`(?i)retry[-_ ]after"?\s*[:=]?\s*"?(\d+(?:\.\d+)?)\s*(s|ms)?\b|retryDelay"?\s*[:=]\s*"(\d+(?:\.\d+)?)s"`)
)

// Imminent is how far a printed reset may lie before now and still be the
// one just due, not the same time tomorrow (or next year): the CLIs print
// the reset to the minute, and the machine's clock may run a little ahead
// of the provider's.
const Imminent = 5 * time.Minute

// ReadLimit reads a limit's kind and reset time from what the agent said;
// now anchors relative times ("in 4 days") and clock times ("resets 3pm",
// the next such moment in now's location unless the text names a zone).
//
// A reset printed to the minute ("resets 10:10pm", "try again at 10:11
// PM", "resets Nov 29, 11:23pm") is read as the end of that minute: the
// CLIs cut the exact reset to its minute, so the limit has lifted by then.
// A time of day at most Imminent before now is that moment (the limit is
// lifting now), not the same time tomorrow.
func ReadLimit(text string, now time.Time) Limit {
	var l Limit
	l.Usage = usageLimitRE().MatchString(text)
	if m := epochRE().FindStringSubmatch(text); m != nil {
		if sec, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			l.ResetsAt = time.Unix(sec, 0)
			l.Usage = true
			return l
		}
	}
	if m := dateRE().FindStringSubmatch(text); m != nil {
		if t, ok := dateClock(m, now); ok {
			l.ResetsAt = t
			l.Usage = true
			return l
		}
	}
	if m := relativeRE().FindStringSubmatch(text); m != nil {
		if d := sumUnits(m[1]); d > 0 {
			if l.Usage {
				l.ResetsAt = now.Add(d)
			} else {
				l.RetryAfter = d
			}
			return l
		}
	}
	if m := clockRE().FindStringSubmatch(text); m != nil {
		if t, ok := nextClock(m, now); ok {
			l.ResetsAt = t
			l.Usage = true
			return l
		}
	}
	if m := retryAfterRE().FindStringSubmatch(text); m != nil {
		num, unit := m[1], m[2]
		if num == "" {
			num, unit = m[3], "s"
		}
		if f, err := strconv.ParseFloat(num, 64); err == nil {
			d := time.Duration(f * float64(time.Second))
			if strings.EqualFold(unit, "ms") {
				d = time.Duration(f * float64(time.Millisecond))
			}
			l.RetryAfter = d
		}
	}
	return l
}

// sumUnits adds up "4 days 3 hours 2 minutes".
func sumUnits(s string) time.Duration {
	var total time.Duration
	for _, m := range unitRE().FindAllStringSubmatch(s, -1) {
		f, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			continue
		}
		var unit time.Duration
		switch u := strings.ToLower(m[2]); {
		case u == "ms":
			unit = time.Millisecond
		case strings.HasPrefix(u, "d"):
			unit = 24 * time.Hour
		case strings.HasPrefix(u, "h"):
			unit = time.Hour
		case strings.HasPrefix(u, "m"):
			unit = time.Minute
		default:
			unit = time.Second
		}
		total += time.Duration(f * float64(unit))
	}
	return total
}

// nextClock is the end of the minute of a clockRE match's time of day, in
// the zone it names or now's: today's, unless that is more than Imminent
// before now, then tomorrow's.
func nextClock(m []string, now time.Time) (time.Time, bool) {
	hour, minute, ok := clockOf(m[1], m[2], m[3])
	if !ok {
		return time.Time{}, false
	}
	loc := zoneOf(m[4], now)
	n := now.In(loc)
	t := time.Date(n.Year(), n.Month(), n.Day(), hour, minute, 0, 0, loc).Add(time.Minute)
	if t.Before(now.Add(-Imminent)) {
		t = time.Date(n.Year(), n.Month(), n.Day()+1, hour, minute, 0, 0, loc).Add(time.Minute)
	}
	return t, true
}

// dateClock is the end of the minute of a dateRE match (the start of the
// day when it gives no time), in the zone it names or now's; without a
// year, this year's date unless that is more than Imminent before now,
// then next year's.
func dateClock(m []string, now time.Time) (time.Time, bool) {
	month, err := time.Parse("Jan", strings.ToUpper(m[1][:1])+strings.ToLower(m[1][1:3]))
	if err != nil {
		return time.Time{}, false
	}
	day, err := strconv.Atoi(m[2])
	if err != nil || day < 1 || day > 31 {
		return time.Time{}, false
	}
	hour, minute, end := 0, 0, time.Duration(0)
	if m[4] != "" {
		var ok bool
		if hour, minute, ok = clockOf(m[4], m[5], m[6]); !ok {
			return time.Time{}, false
		}
		end = time.Minute
	}
	loc := zoneOf(m[7], now)
	year := now.In(loc).Year()
	if m[3] != "" {
		year, _ = strconv.Atoi(m[3])
	}
	t := time.Date(year, month.Month(), day, hour, minute, 0, 0, loc).Add(end)
	if m[3] == "" && t.Before(now.Add(-Imminent)) {
		t = time.Date(year+1, month.Month(), day, hour, minute, 0, 0, loc).Add(end)
	}
	return t, true
}

// clockOf reads a time of day: an hour, its minutes (may be empty) and am
// or pm (may be empty, then the minutes may not be: "resets 3" is no time).
func clockOf(h, mins, ampm string) (hour, minute int, ok bool) {
	hour, err := strconv.Atoi(h)
	if err != nil {
		return 0, 0, false
	}
	if mins != "" {
		minute, _ = strconv.Atoi(mins)
	}
	switch strings.ToLower(ampm) {
	case "pm":
		if hour < 12 {
			hour += 12
		}
	case "am":
		if hour == 12 {
			hour = 0
		}
	case "":
		if mins == "" {
			return 0, 0, false
		}
	}
	if hour > 23 || minute > 59 {
		return 0, 0, false
	}
	return hour, minute, true
}

// zoneOf is the zone a reset names ("UTC", "Europe/Paris"), or now's.
func zoneOf(name string, now time.Time) *time.Location {
	if name != "" {
		if z, err := time.LoadLocation(name); err == nil {
			return z
		}
	}
	return now.Location()
}

// limitNameRE finds the limit a CLI names: claude's "You've hit your
// weekly limit", "… 5-hour limit", "… Opus limit".
var limitNameRE = lazyre.New(`(?i)hit your ((?:[\w-]+ )?limit)`)

// LimitName is the usage limit text names, as a person says it ("weekly
// limit", "5-hour limit", "Opus limit"), or "usage limit" when it names
// none in particular.
func LimitName(text string) string {
	if m := limitNameRE().FindStringSubmatch(text); m != nil {
		if name := m[1]; name != "limit" && !strings.EqualFold(name, "usage limit") {
			return name
		}
	}
	return "usage limit"
}
