package failure

import (
	"fmt"
	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// Systemic looks for one cause behind several failures (for the halt
// summary, docs/running.md): two or more reports of one type with the same missing
// tool, or with the same message. It returns one sentence naming the cause
// and true, or "" and false. The largest group wins; on a tie, a shared
// missing tool beats a shared message, then the earlier report.
func Systemic(reports []failreport.Report) (string, bool) {
	type key struct {
		t       failreport.Type
		tool    bool
		subject string
	}
	counts := map[key]int{}
	var order []key
	add := func(k key) {
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	for _, r := range reports {
		if r.MissingTool != "" {
			add(key{r.Type, true, r.MissingTool})
		}
		if r.Message != "" {
			add(key{r.Type, false, r.Message})
		}
	}
	var best key
	n := 0
	for _, k := range order {
		c := counts[k]
		if c > n || (c == n && k.tool && !best.tool) {
			best, n = k, c
		}
	}
	if n < 2 {
		return "", false
	}
	if best.tool {
		return fmt.Sprintf("%d phases failed for one cause: %s is not installed (%s); %s, then resume",
			n, best.subject, best.t, InstallHint(best.subject)), true
	}
	return fmt.Sprintf("%d phases failed for one cause (%s): %s", n, best.t, best.subject), true
}
