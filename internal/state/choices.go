package state

import (
	"fmt"
	"slices"
	"strings"
)

// parseChoice checks s, given by a person (a flag, a config file), against
// the values of a closed set; what names the set in the error ("commit
// mode"). "" is never a value.
func parseChoice[T ~string](s string, values []T, what string) (T, error) {
	if i := slices.Index(values, T(s)); i >= 0 && s != "" {
		return values[i], nil
	}
	return "", fmt.Errorf("unknown %s %q: use %s", what, s, choiceNames(values))
}

// choiceNames is "a, b, c", for messages.
func choiceNames[T ~string](values []T) string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}
