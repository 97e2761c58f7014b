package metrics

import (
	"fmt"
	"math"
)

// Percent formats a ratio as "26%" ("-" for none).
func Percent(r float64) string { return fmt.Sprintf("%.0f%%", math.Round(r*100)) }

// Duration formats seconds as "45s", "3m12s", "1h02m" or "2d03h".
// Tokens formats a token count as "950", "12.3k", "139k" or "4.1M".
func Tokens(n float64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", n/1e6)
	case n >= 1e5:
		return fmt.Sprintf("%.0fk", n/1e3)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}

// USD formats dollars: "$0.042", "$1.23", "$120".
func USD(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v < 1:
		return fmt.Sprintf("$%.3f", v)
	case v < 100:
		return fmt.Sprintf("$%.2f", v)
	}
	return fmt.Sprintf("$%.0f", v)
}
