package failure

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Limit is what an agent's words say about a provider's limit: whether it is
// a usage limit of a subscription (hours away) rather than a rate limit
// (seconds away), and when it lifts, when they say.
type Limit struct {
	// Usage is set for a subscription's usage limit ("Claude AI usage limit
	// reached", codex's "You've hit your usage limit").
	Usage bool
	// ResetsAt is when the limit lifts, zero when the text does not say.
	ResetsAt time.Time
	// RetryAfter is a server's or CLI's "try again in 20s" for a rate
	// limit, zero when none is given.
	RetryAfter time.Duration
}

var (
	usageLimitRE = regexp.MustCompile(`(?i)usage limit|hit your (?:usage )?limit|(?:\d+-hour|weekly|session|opus) limit reached|out of (?:extra )?usage`)
	// claude prints "Claude AI usage limit reached|1764000000".
	epochRE = regexp.MustCompile(`(?i)limit reached\|(\d{9,11})\b`)
	// codex: "try again in 4 days 3 hours 2 minutes", "Please try again in
	// 1s", "retry in 20.5 seconds", "resets in 2h 5m".
	relativeRE = regexp.MustCompile(`(?i)(?:try again|retry|resets?|available again)\s+in\s+((?:\d+(?:\.\d+)?\s*(?:days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s|ms)\b[\s,]*(?:and\s+)?)+)`)
	unitRE     = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s|ms)\b`)
	// claude: "resets 3pm", "Your limit will reset at 3pm (Europe/Paris)",
	// "resets at 15:30".
	clockRE = regexp.MustCompile(`(?i)resets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([A-Za-z_]+(?:/[A-Za-z_+-]+)*)\))?`)
	// codex: "try again at Jan 15th, 2027 8:00 AM" (its local time).
	dateRE = regexp.MustCompile(`(?i)try again at ([A-Z][a-z]{2}) (\d{1,2})(?:st|nd|rd|th)?, (\d{4}) (\d{1,2}:\d{2}) ?([AP]M)`)
	// An HTTP retry-after header as a CLI shows it, or gemini's RetryInfo
	// ("retryDelay": "12s").
	retryAfterRE = regexp.MustCompile(`(?i)retry[-_ ]after"?\s*[:=]?\s*"?(\d+(?:\.\d+)?)\s*(s|ms)?\b|retryDelay"?\s*[:=]\s*"(\d+(?:\.\d+)?)s"`)
)

// ReadLimit reads a limit's kind and reset time from what the agent said;
// now anchors relative times ("in 4 days") and clock times ("resets 3pm",
// the next such moment in now's location unless the text names a zone).
func ReadLimit(text string, now time.Time) Limit {
	var l Limit
	l.Usage = usageLimitRE.MatchString(text)
	if m := epochRE.FindStringSubmatch(text); m != nil {
		if sec, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			l.ResetsAt = time.Unix(sec, 0)
			l.Usage = true
			return l
		}
	}
	if m := dateRE.FindStringSubmatch(text); m != nil {
		if t, err := time.ParseInLocation("Jan 2 2006 3:04 PM", m[1]+" "+m[2]+" "+m[3]+" "+m[4]+" "+strings.ToUpper(m[5]), now.Location()); err == nil {
			l.ResetsAt = t
			l.Usage = true
			return l
		}
	}
	if m := relativeRE.FindStringSubmatch(text); m != nil {
		if d := sumUnits(m[1]); d > 0 {
			if l.Usage {
				l.ResetsAt = now.Add(d)
			} else {
				l.RetryAfter = d
			}
			return l
		}
	}
	if m := clockRE.FindStringSubmatch(text); m != nil {
		if t, ok := nextClock(m, now); ok {
			l.ResetsAt = t
			l.Usage = true
			return l
		}
	}
	if m := retryAfterRE.FindStringSubmatch(text); m != nil {
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
	for _, m := range unitRE.FindAllStringSubmatch(s, -1) {
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

// nextClock is the first moment after now at the clock time of a clockRE
// match, in the zone it names or now's.
func nextClock(m []string, now time.Time) (time.Time, bool) {
	hour, err := strconv.Atoi(m[1])
	if err != nil {
		return time.Time{}, false
	}
	minute := 0
	if m[2] != "" {
		minute, _ = strconv.Atoi(m[2])
	}
	switch strings.ToLower(m[3]) {
	case "pm":
		if hour < 12 {
			hour += 12
		}
	case "am":
		if hour == 12 {
			hour = 0
		}
	case "":
		if m[2] == "" {
			// "resets 3" is no clock time.
			return time.Time{}, false
		}
	}
	if hour > 23 || minute > 59 {
		return time.Time{}, false
	}
	loc := now.Location()
	if m[4] != "" {
		if z, err := time.LoadLocation(m[4]); err == nil {
			loc = z
		}
	}
	n := now.In(loc)
	t := time.Date(n.Year(), n.Month(), n.Day(), hour, minute, 0, 0, loc)
	if !t.After(now) {
		t = t.AddDate(0, 0, 1)
	}
	return t, true
}
