package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// unknownFlag finds the flag pflag could not place in its error:
// "unknown flag: --comit" or "unknown shorthand flag: 'x' in -x".
var unknownFlag = lazyre.New(`^unknown flag: --([^\s=]+)`)

// flagError is the root's and every subcommand's answer to a flag cobra
// refuses: the error, a "did you mean" when one of the command's flags is
// close to the mistyped one, and where to read about flags.
func flagError(cmd *cobra.Command, err error) error {
	if m := unknownFlag().FindStringSubmatch(err.Error()); m != nil {
		if near := nearFlags(cmd, m[1]); len(near) > 0 {
			return usageErr("%v: did you mean %s? (see autobuild --help)", err, strings.Join(near, " or "))
		}
	}
	return usageErr("%v (see autobuild --help)", err)
}

// nearFlags are cmd's flags (its own and those it inherits) within two edits
// of name, or that begin with it, as --name, closest first.
func nearFlags(cmd *cobra.Command, name string) []string {
	type near struct {
		flag string
		d    int
	}
	var found []near
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := levenshtein(strings.ToLower(name), f.Name)
		if d <= 2 || (len(name) >= 3 && strings.HasPrefix(f.Name, name)) {
			found = append(found, near{"--" + f.Name, d})
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, n := range found {
		if !slices.Contains(out, n.flag) {
			out = append(out, n.flag)
		}
	}
	return out
}

// levenshtein is the edit distance between a and b (insertions, deletions,
// substitutions of one byte each).
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// commandList names root's commands a user may type, for the hint of an
// unknown one: every visible command, so none is left out as new ones come.
func commandList(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return fmt.Sprint(strings.Join(names, ", "))
}
