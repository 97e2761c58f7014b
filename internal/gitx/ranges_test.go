package gitx

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseHunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		diff string
		want []LineRange
	}{
		{"none", "", nil},
		{"one line", "@@ -12 +12 @@\n-a\n+b\n", []LineRange{{12, 12}}},
		{"span", "@@ -10,16 +10,3 @@ func x()\n", []LineRange{{10, 25}}},
		{"insertion", "@@ -7,0 +8,2 @@\n+x\n+y\n", []LineRange{{7, 7}}},
		{"insertion at top", "@@ -0,0 +1 @@\n+x\n", []LineRange{{0, 0}}},
		{"deletion", "@@ -3,2 +2,0 @@\n-a\n-b\n", []LineRange{{3, 4}}},
		{"several", "@@ -1 +1 @@\n-a\n+b\n@@ -20,3 +20 @@\n-c\n", []LineRange{{1, 1}, {20, 22}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, parseHunks(tt.diff))
		})
	}
}

func TestLineRangeString(t *testing.T) {
	t.Parallel()
	require.Equal(t, "10-25", LineRange{10, 25}.String())
	require.Equal(t, "12", LineRange{12, 12}.String())
}

func TestOverlap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b []LineRange
		want bool
	}{
		{"empty", nil, []LineRange{{1, 5}}, false},
		{"apart", []LineRange{{1, 5}}, []LineRange{{6, 9}}, false},
		{"shared line", []LineRange{{1, 5}}, []LineRange{{5, 9}}, true},
		{"inside", []LineRange{{1, 20}}, []LineRange{{5, 6}}, true},
		{"insertion after edited line", []LineRange{{7, 7}}, []LineRange{{7, 9}}, true},
		{"second pair", []LineRange{{1, 1}, {30, 31}}, []LineRange{{10, 12}, {31, 40}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, Overlap(tt.a, tt.b))
			require.Equal(t, tt.want, Overlap(tt.b, tt.a))
		})
	}
}

func TestChangedRangesInsertionAndDeletion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, root := newRepo(t)
	from := gitT(t, root, "rev-parse", "HEAD")
	content := numbered(20, map[int]string{4: "line 4\ninserted"})
	content = content[len("line 1\n"):] // delete line 1
	writeFile(t, root, "f.txt", content)
	gitT(t, root, "commit", "-qam", "edit")
	rs, err := ChangedRanges(ctx, root, from, "HEAD", "f.txt")
	require.NoError(t, err)
	require.Equal(t, []LineRange{{1, 1}, {4, 4}}, rs)
	rs, err = ChangedRanges(ctx, root, from, "HEAD", "README.md")
	require.NoError(t, err)
	require.Empty(t, rs)
}
