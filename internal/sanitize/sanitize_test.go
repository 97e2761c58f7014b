package sanitize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// hostile are the sequences a plan or an agent could use to drive the
// terminal that shows them.
var hostile = []struct{ name, in, want string }{
	{"OSC 52 clipboard write (BEL)", "a\x1b]52;c;ZWNobyBwd25lZA==\x07b", "ab"},
	{"OSC 52 clipboard write (ST)", "a\x1b]52;c;ZWNobyBwd25lZA==\x1b\\b", "ab"},
	{"OSC 0 window title", "\x1b]0;pwned\x07title", "title"},
	{"CSI 2J clear screen", "x\x1b[2J\x1b[Hy", "xy"},
	{"colour", "\x1b[31mred\x1b[0m", "red"},
	{"carriage return overwrite", "rm -rf /\rsafe text", "safe text"},
	{"trailing carriage return", "done\r", "done"},
	{"NUL and BEL", "a\x00b\x07c", "abc"},
	{"8-bit CSI (the introducer goes, its inert parameters stay)", "a\u009b2Jb", "a2Jb"},
	{"invalid UTF-8", "a\xff\xfeb", "ab"},
	{"bidi override", "abc\u202edef", "abcdef"},
	{"tab kept", "a\tb", "a\tb"},
	{"newline dropped in a line", "a\nb", "ab"},
	{"plain text kept", "Phase 2A — naïve 日本", "Phase 2A — naïve 日本"},
}

func TestLine(t *testing.T) {
	t.Parallel()
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, Line(tc.in))
		})
	}
}

func TestExpandTabs(t *testing.T) {
	t.Parallel()
	require.Equal(t, "a       b", ExpandTabs(Line("a\tb")))
	require.Equal(t, "日本    x", ExpandTabs("日本\tx"))
}

func TestTextKeepsLineBreaks(t *testing.T) {
	t.Parallel()
	in := "feat: x\x1b]52;c;AAAA\x07\r\n\nbody\x1b[2J line\nlast\x00"
	require.Equal(t, "feat: x\n\nbody line\nlast", Text(in))
	require.Equal(t, "", Text(""))
}

func TestWriter(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := Writer{W: &buf}
	n, err := fmt.Fprintf(w, "title \x1b]0;evil\x07ok\n")
	require.NoError(t, err)
	require.Equal(t, len("title \x1b]0;evil\x07ok\n"), n)
	require.Equal(t, "title ok\n", buf.String())
}

// FuzzLine checks that nothing that can drive a terminal survives Line,
// whatever the input.
func FuzzLine(f *testing.F) {
	for _, tc := range hostile {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if dropped(r) && r != '\t' {
				t.Fatalf("control %U survived in %q (from %q)", r, out, s)
			}
		}
		if strings.ContainsRune(out, '\x1b') {
			t.Fatalf("escape survived: %q", out)
		}
	})
}

// Issue 25, attack 5: the --json stream escapes C1 controls and
// bidirectional overrides, which encoding/json leaves raw.
func TestJSONWriterEscapesC1AndBidi(t *testing.T) {
	var b strings.Builder
	require.NoError(t, json.NewEncoder(JSONWriter{W: &b}).Encode(map[string]string{"name": "a\u202eb\u009bc\u007fd é"}))
	require.Equal(t, `{"name":"a\u202eb\u009bc\u007fd é"}`+"\n", b.String())
	var back map[string]string
	require.NoError(t, json.Unmarshal([]byte(b.String()), &back))
	require.Equal(t, "a\u202eb\u009bc\u007fd é", back["name"])
}
