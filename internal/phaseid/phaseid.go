package phaseid

import "strings"

// ID is a phase's normalized id ("2a"): the key of its maps, files,
// branches and trailers. plan.NormalizeID makes one from an id as written.
type ID string

// Display is a phase's id as the user wrote it, without a "Phase" prefix
// ("2A"): for labels and messages, never a key.
type Display string

// Join joins ids with sep, as strings.Join does strings.
func Join[T ~string](ids []T, sep string) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(id))
	}
	return b.String()
}

// Or is d, or the id itself when d is empty (a record written before
// display ids were kept): what to show a person either way.
func (d Display) Or(id ID) Display {
	if d == "" {
		return Display(id)
	}
	return d
}
