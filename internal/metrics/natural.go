package metrics

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// naturalCompare orders phase ids as people do: 2 before 2A before 10.
func naturalCompare(x, y phaseid.Display) int {
	a, b := string(x), string(y)
	for a != "" && b != "" {
		da, ra := leadingNumber(a)
		db, rb := leadingNumber(b)
		switch {
		case da >= 0 && db >= 0:
			if da != db {
				return cmpInt(da, db)
			}
			a, b = ra, rb
			continue
		}
		if c := strings.Compare(strings.ToLower(a[:1]), strings.ToLower(b[:1])); c != 0 {
			return c
		}
		a, b = a[1:], b[1:]
	}
	return cmpInt(len(a), len(b))
}

// leadingNumber returns the number s starts with and the rest, or -1.
func leadingNumber(s string) (int, string) {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
	if i < 0 {
		i = len(s)
	}
	if i == 0 {
		return -1, s
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		return -1, s
	}
	return n, s[i:]
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
