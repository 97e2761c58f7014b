package metrics

import (
	"strings"
)

// sparkTicks are the eight heights of a sparkline.
var sparkTicks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws one tick per value in [0, 1]; a nil value (a run with no
// finished attempt) is a space. At most width ticks: the newest values.
func sparkline(values []*float64, width int) string {
	if len(values) > width {
		values = values[len(values)-width:]
	}
	var b strings.Builder
	for _, v := range values {
		if v == nil {
			b.WriteRune(' ')
			continue
		}
		i := int(*v*float64(len(sparkTicks)-1) + 0.5)
		b.WriteRune(sparkTicks[max(0, min(i, len(sparkTicks)-1))])
	}
	return b.String()
}

// bar is a horizontal bar of n out of most, at most width cells, at least
// one cell for any n > 0.
func bar(n, most, width int) string {
	if n <= 0 || most <= 0 || width <= 0 {
		return ""
	}
	cells := max(1, (n*width+most/2)/most)
	return strings.Repeat("█", min(cells, width))
}
