package state

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestFileID(t *testing.T) {
	t.Parallel()
	hashed := func(prefix string) *regexp.Regexp {
		return regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + "__[0-9a-f]{10}$")
	}
	tests := []struct {
		id   phaseid.ID
		keep bool           // kept as it is
		want *regexp.Regexp // when changed
	}{
		{id: "2a", keep: true},
		{id: "0", keep: true},
		{id: "v1.2_x-y", keep: true},
		{id: "2A", want: hashed("2a")},
		{id: "", want: hashed("id")},
		{id: "../../etc", want: hashed("_._.__etc")},
		{id: ".", want: hashed("_")},
		{id: "..", want: hashed("_.")},
		{id: ".hidden", want: hashed("_hidden")},
		{id: "end.", want: hashed("end.")},
		{id: "a..b", want: hashed("a._b")},
		{id: "ref.lock", want: hashed("ref.lock")},
		{id: "a__b", want: hashed("a__b")},
		{id: "phase 2/a", want: hashed("phase_2_a")},
		{id: "ünïcødé", want: hashed("_n_c_d_")},
		{id: "日本", want: hashed("__")},
		{id: phaseid.ID(strings.Repeat("a", 64)), keep: true},
		{id: phaseid.ID(strings.Repeat("a", 65)), want: hashed(strings.Repeat("a", 40))},
	}
	seen := map[string]phaseid.ID{}
	for _, tt := range tests {
		got := string(FileIDOf(tt.id))
		if tt.keep {
			require.Equal(t, string(tt.id), got)
		} else {
			require.Regexp(t, tt.want, got, "FileIDOf(%q)", tt.id)
		}
		require.NotEmpty(t, got)
		require.NotEqual(t, ".", got)
		require.NotEqual(t, "..", got)
		require.NotContains(t, got, "..")
		require.NotContains(t, got, "/")
		require.False(t, strings.HasPrefix(got, "."))
		require.LessOrEqual(t, len(got), 64)
		require.Regexp(t, `^[a-z0-9._-]+$`, got)
		require.Equal(t, FileID(got), FileIDOf(tt.id), "deterministic")
		if other, dup := seen[got]; dup {
			t.Fatalf("FileIDOf(%q) == FileIDOf(%q) == %q", tt.id, other, got)
		}
		seen[got] = tt.id
	}
	// Ids that sanitize to the same prefix still differ.
	require.NotEqual(t, FileIDOf("a/b"), FileIDOf("a b"))
	require.NotEqual(t, FileIDOf("2A"), FileIDOf("2a"))
}
