package shell

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

var quoteCases = []struct{ in, want string }{
	{"plan.md", "plan.md"},
	{"docs/plan.md", "docs/plan.md"},
	{"--commit=auto", "--commit=auto"},
	{"-v", "-v"},
	{"", "''"},
	{"my plan.md", "'my plan.md'"},
	{"a\tb", "'a\tb'"},
	{"it's.md", `'it'\''s.md'`},
	{"'", `''\'''`},
	{`say "hi"`, `'say "hi"'`},
	{"$HOME/plan.md", "'$HOME/plan.md'"},
	{"`id`", "'`id`'"},
	{`C:\plans`, `'C:\plans'`},
	{"a|b", "'a|b'"},
	{"a&b", "'a&b'"},
	{"a;b", "'a;b'"},
	{"<in>", "'<in>'"},
	{"(x)", "'(x)'"},
	{"*.md", "'*.md'"},
	{"~/plan.md", "'~/plan.md'"},
	{"#plan", "'#plan'"},
	{"a\nb", "'a\nb'"},
	{"plän.md", "'plän.md'"},
}

func TestQuote(t *testing.T) {
	t.Parallel()
	for _, tt := range quoteCases {
		require.Equal(t, tt.want, Quote(tt.in), "%q", tt.in)
	}
}

// What the shell makes of a quoted word is the word itself.
func TestQuoteRoundTripsThroughSh(t *testing.T) {
	t.Parallel()
	for _, tt := range quoteCases {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(tt.in)).Output()
		require.NoError(t, err, "%q", tt.in)
		require.Equal(t, tt.in, string(out), "%q", tt.in)
	}
}

func TestJoin(t *testing.T) {
	t.Parallel()
	require.Equal(t, "git commit -m 'feat(api): add login'", Join("git", "commit", "-m", "feat(api): add login"))
}
