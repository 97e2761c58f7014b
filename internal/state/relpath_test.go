package state

import "testing"

func TestRelPath(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"/repo/.autobuild/logs/1.log", ".autobuild/logs/1.log"},
		{"/elsewhere/x", "../elsewhere/x"},
		{"", ""},
	} {
		if got := RelPath("/repo", c.path); got != c.want {
			t.Errorf("RelPath(/repo, %q) = %q, want %q", c.path, got, c.want)
		}
	}
}
