package event

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/running.md's Output section is the contract of the --json stream:
// it names every field of a gate_result's gate, known_failures included
// (--allow-red-base).
func TestDocsNameTheGateResultFields(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/running.md")
	require.NoError(t, err)
	doc := string(b)
	start := strings.Index(doc, "\n## Output\n")
	require.GreaterOrEqual(t, start, 0, "docs/running.md has an Output section")
	section := doc[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	at := strings.Index(section, "`gate_result`")
	require.GreaterOrEqual(t, at, 0, "the Output section names gate_result")
	text := strings.Join(strings.Fields(section[at:]), " ")
	if end := strings.Index(text, "`run_halted`"); end >= 0 {
		text = text[:end]
	}
	typ := reflect.TypeOf(Gate{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		require.Contains(t, text, "`"+name+"`", "gate_result's field %s is documented", name)
	}
}
